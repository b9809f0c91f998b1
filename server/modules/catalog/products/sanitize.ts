import sanitizeHtml from "sanitize-html";

/**
 * Product descriptions are rich text from staff or imports: only plain
 * formatting survives, links get rel=noopener, and no script, style or event
 * handler ever reaches a page.
 */
export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "h2", "h3", "h4", "table", "thead", "tbody", "tr", "th", "td", "a", "blockquote"],
    allowedAttributes: { a: ["href", "title"] },
    allowedSchemes: ["https", "http", "mailto"],
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }) },
    disallowedTagsMode: "discard",
  });
}
