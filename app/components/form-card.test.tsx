// A page's one form in its card, with the answer's alert and success.
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormResult } from "../lib/form-result.ts";
import { FormCard } from "./form-card.tsx";

function render(result: FormResult | undefined, props: { showSuccess?: boolean; action?: string; gap?: "gap-5" | "gap-6" } = {}) {
  const Stub = createRoutesStub([
    {
      path: "/account/details",
      Component: () => (
        <FormCard result={result} {...props}>
          <input name="email" aria-label="Email address" />
        </FormCard>
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/account/details"]} />);
}

describe("FormCard", () => {
  it("posts the form in its card, the alert of a refusal first inside it", () => {
    const html = render({ ok: false, message: "Check the fields marked below.", errors: {} });
    expect(html).toMatch(/^<div class="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8"><form class="grid gap-5"[^>]* action="\/account\/details" method="post"><div role="alert" tabindex="-1"[^>]*>Check the fields marked below.<\/div><input aria-label="Email address"/);
  });

  it("shows a success above the card only when asked, and posts where told", () => {
    expect(render({ ok: true, message: "Saved." }, { showSuccess: true })).toMatch(/^<div class="mb-6"><div role="status"[^>]*>Saved.<\/div><\/div><div class="rounded-lg/);
    const plain = render({ ok: true, message: "Saved." }, { action: "/auth/recovery", gap: "gap-6" });
    expect(plain).not.toContain("Saved.");
    expect(plain).toMatch(/<form class="grid gap-6"[^>]* action="\/auth\/recovery" method="post">/);
  });
});
