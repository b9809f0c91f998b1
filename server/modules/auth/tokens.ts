import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { turnBatch } from "../../lib/turn-batch.ts";
import type { TradeMembership } from "../trade/pricing.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { type User, accessTokens, users } from "./schema.ts";

export const REMEMBER_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_SECONDS = 24 * 60 * 60;
/** `last_used_at` is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A fresh token `{id}|{secret}` with 256 bits of randomness; only its SHA-256 is stored. */
export async function issueAccessToken(db: Db, userId: number, remember: boolean, now = new Date()) {
  const secret = randomBytes(32).toString("base64url");
  const maxAge = remember ? REMEMBER_SECONDS : SESSION_SECONDS;
  const [row] = await db
    .insert(accessTokens)
    .values({ userId, tokenHash: sha256(secret), remember, expiresAt: new Date(now.getTime() + maxAge * 1000) })
    .returning({ id: accessTokens.id });
  if (!row) throw new Error("could not issue a token");
  return { token: `${row.id}|${secret}`, tokenId: row.id, maxAge, remember };
}

export function parseToken(plain: string): { id: number; secret: string } | null {
  const bar = plain.indexOf("|");
  if (bar < 1 || plain.length > 200) return null;
  const id = Number(plain.slice(0, bar));
  const secret = plain.slice(bar + 1);
  if (!Number.isSafeInteger(id) || id < 1 || secret.length < 20) return null;
  return { id, secret };
}

/**
 * The sessions' one query, by token ids: built once per database and prepared
 * (a named statement on PostgreSQL), since every signed-in request runs it.
 */
function prepareSessionQuery(db: Db) {
  return db
    .select({
      token: accessTokens,
      user: users,
      trade: {
        accountId: tradeAccounts.id,
        role: tradeMembers.role,
        state: tradeAccounts.state,
        discountBasisPoints: tradeAccounts.discountBasisPoints,
        pricesIncVat: tradeMembers.pricesIncVat,
      },
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .leftJoin(tradeMembers, eq(tradeMembers.userId, accessTokens.userId))
    .leftJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
    .where(and(sql`${accessTokens.id} = any(${sql.placeholder("ids")})`, gt(accessTokens.expiresAt, sql.placeholder("now")), isNull(users.blockedAt)))
    .prepare("sessions_of_tokens");
}

/**
 * Session reads batched per turn of the event loop (server/lib/turn-batch.ts),
 * as the page version's are: a sign-out, a block or a changed discount committed
 * before a request arrived is always seen, and under load a signed-in request
 * costs a share of one query, not a round trip of its own.
 */
function sessionReader(db: Db) {
  const query = prepareSessionQuery(db);
  const read = turnBatch(async (ids: number[]) => {
    const rows = await query.execute({ ids, now: new Date() });
    return new Map(rows.map((row) => [row.token.id, row]));
  });
  return { query, read };
}
const sessionReaders = new WeakMap<Db, ReturnType<typeof sessionReader>>();

/**
 * The user a token belongs to, or null when it is unknown, wrong or expired,
 * or the user is blocked (a token issued in a race with the block is useless).
 * Their trade membership comes in the same query: it sets the request's prices.
 * `now` (tests) reads that token alone at that time.
 */
export async function resolveAccessToken(db: Db, plain: string, now?: Date): Promise<{ user: User; tokenId: number; trade: TradeMembership | null } | null> {
  const parsed = parseToken(plain);
  if (!parsed) return null;
  let reader = sessionReaders.get(db);
  if (!reader) sessionReaders.set(db, (reader = sessionReader(db)));
  const row = now ? (await reader.query.execute({ ids: [parsed.id], now }))[0] : await reader.read(parsed.id);
  now ??= new Date();
  if (!row) return null;
  const expected = Buffer.from(row.token.tokenHash, "hex");
  const actual = Buffer.from(sha256(parsed.secret), "hex");
  if (!timingSafeEqual(expected, actual)) return null;
  if (!row.token.lastUsedAt || now.getTime() - row.token.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.id, row.token.id));
  }
  const t = row.trade;
  const trade: TradeMembership | null =
    t && t.accountId !== null && t.role !== null && t.state !== null
      ? { accountId: t.accountId, role: t.role, state: t.state, discountBasisPoints: t.discountBasisPoints ?? 0, pricesIncVat: t.pricesIncVat ?? false }
      : null;
  return { user: row.user, tokenId: row.token.id, trade };
}

export async function revokeAccessToken(db: Db, tokenId: number): Promise<void> {
  await db.delete(accessTokens).where(eq(accessTokens.id, tokenId));
}

/** Signs a user out everywhere, except (optionally) the session making the change; answers how many sign-ins ended. */
export async function revokeUserTokens(db: Db, userId: number, exceptTokenId?: number): Promise<number> {
  const revoked = await db
    .delete(accessTokens)
    .where(exceptTokenId ? and(eq(accessTokens.userId, userId), ne(accessTokens.id, exceptTokenId)) : eq(accessTokens.userId, userId))
    .returning({ id: accessTokens.id });
  return revoked.length;
}

/** Expired tokens are of no use to anyone; a periodic sweep keeps the table small. */
export async function pruneExpiredTokens(db: Db, now = new Date()): Promise<void> {
  await db.delete(accessTokens).where(lt(accessTokens.expiresAt, sql`${now.toISOString()}::timestamptz`));
}
