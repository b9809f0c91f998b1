import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { parseToken, sha256 } from "../auth/tokens.ts";
import type { StaffActor } from "./actor.ts";
import { type Staff, staff, staffApiTokens, staffSessions } from "./schema.ts";

/** OWASP's guidance for privileged sessions: 20 minutes idle, 8 hours at most. */
export const STAFF_IDLE_MS = 20 * 60_000;
export const STAFF_SESSION_MAX_MS = 8 * 60 * 60_000;
/** Sensitive actions (staff, roles, API tokens, large refunds) need the password within this long. */
export const REAUTH_WINDOW_MS = 5 * 60_000;
/** `last_seen_at` is written at most this often: the idle bound moves in 30 s steps. */
const TOUCH_INTERVAL_MS = 30_000;
/** Staff API tokens carry this prefix, so a leaked one is recognisable (and never taken for a session). */
export const API_TOKEN_PREFIX = "tca_";

/** Who a staff credential is, resolved per request. */
export interface StaffPrincipal {
  member: Staff;
  /** A sign-in session, or an API token acting with its own role. */
  kind: "session" | "token";
  sessionId?: number;
  reauthenticatedAt?: Date;
  tokenName?: string;
  role: Staff["role"];
}

export function secretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Signs a member in: a fresh session, `{id}|{secret}`, whose secret is stored only as its SHA-256. */
export async function issueStaffSession(db: Db, staffId: number, now = new Date()): Promise<{ token: string; sessionId: number; expiresAt: Date }> {
  const secret = secretToken();
  const expiresAt = new Date(now.getTime() + STAFF_SESSION_MAX_MS);
  const [row] = await db
    .insert(staffSessions)
    .values({ staffId, tokenHash: sha256(secret), lastSeenAt: now, reauthenticatedAt: now, expiresAt })
    .returning({ id: staffSessions.id });
  return { token: `${row!.id}|${secret}`, sessionId: row!.id, expiresAt };
}

function sameHash(storedHex: string, secret: string): boolean {
  const expected = Buffer.from(storedHex, "hex");
  const actual = Buffer.from(sha256(secret), "hex");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The member behind a session token, or null when it is unknown, idle too long, past 8 hours, or the member was removed. */
export async function resolveStaffSession(db: Db, plain: string, now = new Date()): Promise<StaffPrincipal | null> {
  const parsed = parseToken(plain);
  if (!parsed) return null;
  const idleCutoff = new Date(now.getTime() - STAFF_IDLE_MS);
  const [row] = await db
    .select({ session: staffSessions, member: staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.id, parsed.id), gt(staffSessions.expiresAt, now), gt(staffSessions.lastSeenAt, idleCutoff), isNull(staff.removedAt)))
    .limit(1);
  if (!row || !sameHash(row.session.tokenHash, parsed.secret)) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, row.session.id));
  }
  return { member: row.member, kind: "session", sessionId: row.session.id, reauthenticatedAt: row.session.reauthenticatedAt, role: row.member.role };
}

/** An API token's principal: the owner who made it, acting with the token's role; null when unknown or revoked. */
export async function resolveStaffApiToken(db: Db, plain: string, now = new Date()): Promise<StaffPrincipal | null> {
  if (!plain.startsWith(API_TOKEN_PREFIX)) return null;
  const parsed = parseToken(plain.slice(API_TOKEN_PREFIX.length));
  if (!parsed) return null;
  const [row] = await db
    .select({ token: staffApiTokens, member: staff })
    .from(staffApiTokens)
    .innerJoin(staff, eq(staff.id, staffApiTokens.createdBy))
    .where(and(eq(staffApiTokens.id, parsed.id), isNull(staffApiTokens.revokedAt)))
    .limit(1);
  if (!row || !sameHash(row.token.tokenHash, parsed.secret)) return null;
  if (!row.token.lastUsedAt || now.getTime() - row.token.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(staffApiTokens).set({ lastUsedAt: now }).where(eq(staffApiTokens.id, row.token.id));
  }
  return { member: row.member, kind: "token", tokenName: row.token.name, role: row.token.role };
}

export async function revokeStaffSession(db: Db, sessionId: number): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.id, sessionId));
}

/** Signs a member out everywhere (removed, role changed, password changed). */
export async function revokeStaffSessions(db: Db, staffId: number): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
}

/** Sessions past either bound are of no use; the periodic sweep removes them. */
export async function pruneStaffSessions(db: Db, now = new Date()): Promise<void> {
  const idleCutoff = new Date(now.getTime() - STAFF_IDLE_MS);
  await db.delete(staffSessions).where(or(lt(staffSessions.expiresAt, sql`${now.toISOString()}::timestamptz`), lt(staffSessions.lastSeenAt, sql`${idleCutoff.toISOString()}::timestamptz`)));
}

/** The actor a principal acts as through a door: the audit log records which. */
export function actorOf(principal: StaffPrincipal, door: "screen" | "api"): StaffActor {
  const { member } = principal;
  return {
    staffId: member.id,
    name: member.name,
    email: member.email,
    role: principal.role,
    via: principal.kind === "token" ? "token" : door,
    ...(principal.tokenName ? { tokenName: principal.tokenName } : {}),
    ...(principal.sessionId ? { sessionId: principal.sessionId } : {}),
    branchIds: member.branchIds,
    branchesOnly: member.branchesOnly,
  };
}
