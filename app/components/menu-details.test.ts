// Escape closes a disclosure menu and gives the focus back to its summary.
import { describe, expect, it } from "vitest";
import { closeOnEscape } from "./menu-details.ts";

/** A stand-in for the menu's `<details>`: whether it is open, and whether its summary took the focus. */
function menu(open: boolean) {
  const summary = { focused: false, focus() { summary.focused = true; } };
  const details = { open, querySelector: (selector: string) => (selector === "summary" ? summary : null) };
  return { details, summary, currentTarget: details as unknown as HTMLDetailsElement };
}

describe("closeOnEscape", () => {
  it("closes an open menu on Escape and focuses its summary", () => {
    const m = menu(true);
    closeOnEscape({ key: "Escape", currentTarget: m.currentTarget });
    expect([m.details.open, m.summary.focused]).toEqual([false, true]);
  });

  it("leaves the menu as it is on another key, and the focus where it is when the menu is closed", () => {
    const open = menu(true);
    closeOnEscape({ key: "Enter", currentTarget: open.currentTarget });
    expect([open.details.open, open.summary.focused]).toEqual([true, false]);
    const closed = menu(false);
    closeOnEscape({ key: "Escape", currentTarget: closed.currentTarget });
    expect(closed.summary.focused).toBe(false);
  });
});
