import type { LightMyRequestResponse } from "fastify";

/** The text of a page, scripts and tags dropped and entities read: what a reader sees, for screen tests. */
export function textOf(res: LightMyRequestResponse): string {
  return res.body
    .replace(/<script\b[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** A page's HTML with React's text separators dropped and entities read, tags kept: for checking text and attributes (`value="…"`) alike. */
export function htmlOf(html: string): string {
  return html.replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
}
