import { describe, expect, it } from "vitest";
import { shopProcessCount } from "./process-model.ts";

const POSTGRES = "postgres://shop@db.internal:5432/shop";

describe("shopProcessCount", () => {
  it("runs one process on PGlite, whatever WEB_CONCURRENCY says", () => {
    expect(shopProcessCount({}, 8)).toBe(1);
    // PGlite admits one process to its data folder: a second would be refused, not shared.
    expect(shopProcessCount({ WEB_CONCURRENCY: "4" }, 8)).toBe(1);
    expect(shopProcessCount({ DATABASE_URL: "", WEB_CONCURRENCY: "4" }, 8)).toBe(1);
  });

  it("runs one process per core on PostgreSQL by default", () => {
    expect(shopProcessCount({ DATABASE_URL: POSTGRES }, 8)).toBe(8);
    expect(shopProcessCount({ DATABASE_URL: POSTGRES }, 1)).toBe(1);
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: "" }, 4)).toBe(4);
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: "  " }, 4)).toBe(4);
  });

  it("takes WEB_CONCURRENCY on PostgreSQL", () => {
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: "1" }, 8)).toBe(1);
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: "3" }, 8)).toBe(3);
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: " 3 " }, 8)).toBe(3);
    // More processes than cores is the operator's choice (a machine waiting on I/O).
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: "16" }, 2)).toBe(16);
    expect(shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: "256" }, 2)).toBe(256);
  });

  it.each(["0", "-1", "two", "1.5", "999", "257", "3x"])("refuses WEB_CONCURRENCY=%j with a message naming the variable and the value", (value) => {
    const count = () => shopProcessCount({ DATABASE_URL: POSTGRES, WEB_CONCURRENCY: value }, 4);
    expect(count).toThrow(RangeError);
    expect(count).toThrow(`WEB_CONCURRENCY must be a whole number from 1 to 256, not ${JSON.stringify(value)}`);
  });
});
