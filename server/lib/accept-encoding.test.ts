import { describe, expect, it } from "vitest";
import { accepts } from "./accept-encoding.ts";

describe("Accept-Encoding", () => {
  it("takes a coding named with a quality above zero, or through *", () => {
    expect(accepts("gzip, deflate, br", "gzip")).toBe(true);
    expect(accepts("br;q=0.5", "br")).toBe(true);
    expect(accepts("*", "gzip")).toBe(true);
    expect(accepts(["deflate", "gzip"], "gzip")).toBe(true);
  });

  it("refuses a coding at q=0, one not named (without *), and none asked for", () => {
    expect(accepts("gzip;q=0", "gzip")).toBe(false);
    expect(accepts("gzip;q=0.0, br", "gzip")).toBe(false);
    // Named at q=0 wins over *.
    expect(accepts("gzip;q=0, *", "gzip")).toBe(false);
    expect(accepts("*;q=0", "br")).toBe(false);
    expect(accepts("identity", "gzip")).toBe(false);
    expect(accepts(undefined, "gzip")).toBe(false);
  });
});
