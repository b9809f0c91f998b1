import { describe, expect, it } from "vitest";
import { tabAndCursorFrom } from "./format.ts";

const STATUSES = ["requested", "sent"] as const;
const from = (query: string) => tabAndCursorFrom(new URL(`http://shop/admin/quotes${query}`), STATUSES, "requested");

describe("tabAndCursorFrom", () => {
  it("reads a list's tab and keyset cursor from its address, falling back to the default tab and no cursor", () => {
    expect(from("?status=sent&cursor=42")).toEqual({ status: "sent", cursor: 42 });
    expect(from("?status=all")).toEqual({ status: "all", cursor: undefined });
    expect(from("")).toEqual({ status: "requested", cursor: undefined });
    expect(from("?status=nonsense&cursor=-3")).toEqual({ status: "requested", cursor: undefined });
    expect(from("?cursor=1.5").cursor).toBeUndefined();
    expect(from("?cursor=2147483648").cursor).toBeUndefined();
  });
});
