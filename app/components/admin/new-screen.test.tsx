// A create screen's frame: the header, the refusal's banner, then the form.
import { describe, expect, it } from "vitest";
import { NewScreen } from "./new-screen.tsx";
import { renderAt } from "./render-for-test.tsx";

describe("NewScreen", () => {
  it("shows the header, then the refusal's message as an alert, then the form", () => {
    const html = renderAt(
      "/admin/things/new",
      <NewScreen title="New thing" back={{ to: "/admin/things", label: "Things" }} result={{ ok: false, message: "Check the fields marked below.", values: { name: "" } }}>
        <form aria-label="New thing" />
      </NewScreen>,
    );
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toContain(">New thing</h1>");
    expect(html).toMatch(/role="alert"[^>]*>Check the fields marked below\.<\/div>/);
    expect(html.indexOf("<form")).toBeGreaterThan(html.indexOf("Check the fields"));
  });

  it("shows no banner before the first post", () => {
    const html = renderAt("/admin/things/new", <NewScreen title="New thing" result={undefined}><form aria-label="New thing" /></NewScreen>);
    expect(html).not.toContain("result-banner");
    expect(html).toContain('<form aria-label="New thing"');
  });
});
