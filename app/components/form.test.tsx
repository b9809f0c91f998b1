// A field's error text and the email field, shared by the shop's forms.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailField, ErrorText } from "./form.tsx";

describe("ErrorText", () => {
  it("reads the error out after an unseen 'Error:', under the id the control points to", () => {
    expect(renderToStaticMarkup(<ErrorText id="topics-error" error="Choose a topic." />)).toBe('<p id="topics-error" class="text-sm font-semibold text-red-700"><span class="sr-only">Error: </span>Choose a topic.</p>');
    expect(renderToStaticMarkup(<ErrorText id="remember-error" error="Tick it." className="mb-1" />)).toContain('class="mb-1 text-sm font-semibold text-red-700"');
  });

  it("is nothing without an error", () => {
    expect(renderToStaticMarkup(<ErrorText id={undefined} error={undefined} />)).toBe("");
  });
});

describe("EmailField", () => {
  it("asks for a required email address the browser fills in and does not spell-check, with what the form adds", () => {
    const html = renderToStaticMarkup(<EmailField id="email" defaultValue="ann@example.com" />);
    expect(html).toContain('<label for="email"');
    expect(html).toContain(">Email address<");
    expect(html).toMatch(/<input [^>]*name="email"/);
    for (const attribute of ['type="email"', 'autoComplete="email"', 'spellCheck="false"', 'required=""', 'value="ann@example.com"']) expect(html).toContain(attribute);
  });
});
