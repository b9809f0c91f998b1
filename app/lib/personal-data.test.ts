// The link a personal page's frame gives a browser without scripts: the same
// page and its parameters, rendered on the server (ADR 0061). The server's
// shared-pages test holds that such an address is never a frame.
import { describe, expect, it } from "vitest";
import { isPersonalFrame } from "../../server/plugins/shared-pages.ts";
import { WITHOUT_SCRIPTS, withoutScriptsHref } from "./personal-data.ts";

describe("the frame's link for a browser without scripts", () => {
  it("keeps the page's parameters and adds the bare flag once", () => {
    expect(withoutScriptsHref("")).toBe(`?${WITHOUT_SCRIPTS}`);
    expect(withoutScriptsHref("?page=2&site=3")).toBe(`?page=2&site=3&${WITHOUT_SCRIPTS}`);
    expect(withoutScriptsHref(`?${WITHOUT_SCRIPTS}&page=2`)).toBe(`?${WITHOUT_SCRIPTS}&page=2`);
  });

  it("leads to a page the server renders for the customer, never the shared frame", () => {
    for (const search of ["", "?page=2&site=3"]) {
      expect(isPersonalFrame(`/account/orders/history${search}`)).toBe(true);
      expect(isPersonalFrame(`/account/orders/history${withoutScriptsHref(search)}`)).toBe(false);
    }
  });
});
