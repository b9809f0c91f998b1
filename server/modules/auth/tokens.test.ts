import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { accessTokens, users } from "./schema.ts";
import { issueAccessToken, resolveAccessToken, revokeAccessToken } from "./tokens.ts";

describe("session reads batched per turn of the event loop", () => {
  let database: TestDatabase;
  const userIds: number[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    for (const name of ["Ada", "Bo", "Cy", "Di"]) {
      const [user] = await database.db.insert(users).values({ email: `${name.toLowerCase()}@example.com`, firstname: name, lastname: "Batch", passwordHash: "x" }).returning({ id: users.id });
      userIds.push(user!.id);
    }
  });
  afterAll(() => database.destroy());

  it("answers each of many requests arriving together with its own user, and nobody for a bad, revoked, expired or blocked token", async () => {
    const db = database.db;
    const [ada, bo, cy, di] = userIds as [number, number, number, number];
    const good = await Promise.all([ada, bo, cy].map((id) => issueAccessToken(db, id, false)));
    const revoked = await issueAccessToken(db, ada, false);
    await revokeAccessToken(db, revoked.tokenId);
    const expired = await issueAccessToken(db, bo, false);
    await db.update(accessTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accessTokens.id, expired.tokenId));
    const blocked = await issueAccessToken(db, di, false);
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, di));
    const wrongSecret = `${good[0]!.tokenId}|${"x".repeat(43)}`;

    // All asked in one turn: one read answers them, each with its own row (the same token twice too).
    const asked = [good[0]!.token, good[1]!.token, revoked.token, good[2]!.token, expired.token, blocked.token, wrongSecret, good[1]!.token, "9999999|" + "y".repeat(43)];
    const answers = await Promise.all(asked.map((token) => resolveAccessToken(db, token)));
    expect(answers.map((a) => a?.user.id ?? null)).toEqual([ada, bo, null, cy, null, null, null, bo, null]);
    expect(answers[0]?.tokenId).toBe(good[0]!.tokenId);
  });

  it("sees a sign-out and a changed discount committed before the request arrived", async () => {
    const db = database.db;
    const [ada] = userIds as [number];
    const session = await issueAccessToken(db, ada, false);
    const [account] = await db
      .insert(tradeAccounts)
      .values({ companyName: "Batch Ltd", companyType: "sole_trader", trade: "Builder", line1: "1 Road", town: "Leeds", postcode: "LS1 1AA", phone: "0113 496 0000", accountsEmail: "a@example.com", expectedMonthlySpend: 100_000, requestedCreditLimit: 0, state: "approved", discountBasisPoints: 500 })
      .returning({ id: tradeAccounts.id });
    await db.insert(tradeMembers).values({ userId: ada, tradeAccountId: account!.id, role: "owner" });
    expect((await resolveAccessToken(db, session.token))?.trade?.discountBasisPoints).toBe(500);
    await db.update(tradeAccounts).set({ discountBasisPoints: 1250 }).where(eq(tradeAccounts.id, account!.id));
    expect((await resolveAccessToken(db, session.token))?.trade?.discountBasisPoints).toBe(1250);
    await revokeAccessToken(db, session.tokenId);
    expect(await resolveAccessToken(db, session.token)).toBeNull();
  });
});
