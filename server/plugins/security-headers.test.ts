import { describe, expect, it } from "vitest";
import { freshNonce } from "./security-headers.ts";

describe("freshNonce", () => {
  it("gives 24 base64 characters (16 bytes), a different nonce every time, across refills of its pool", () => {
    // 1,000 draws empty the 256-nonce pool several times over.
    const nonces = Array.from({ length: 1000 }, () => freshNonce());
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
