import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, count, eq, isNull, max, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import type { Outbox } from "../../auth/service.ts";
import { accessTokens, users } from "../../auth/schema.ts";
import { parseToken, sha256 } from "../../auth/tokens.ts";
import { renderEmail } from "../../mail/templates.ts";
import { type TradeInvitation, tradeInvitations } from "./invitations-schema.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "../schema.ts";
import { membershipOf } from "../service.ts";

export const INVITATION_DAYS = 7;
const MANAGERS: readonly TradeRole[] = ["owner", "admin"];
const NOT_FOUND = "Not Found";

export interface TradeUserJson {
  id: number;
  name: string;
  email: string;
  role: TradeRole;
  status: "active";
  last_active_at: string | null;
  joined_at: string;
}

export interface TradeInvitationJson {
  id: number;
  email: string;
  role: TradeRole;
  status: "pending" | "expired" | "accepted" | "revoked";
  expires_at: string;
  created_at: string;
}

export function invitationStatus(inv: TradeInvitation, now: Date): TradeInvitationJson["status"] {
  if (inv.acceptedAt) return "accepted";
  if (inv.revokedAt) return "revoked";
  return inv.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
}

function toInvitationJson(inv: TradeInvitation, now: Date): TradeInvitationJson {
  return { id: inv.id, email: inv.email, role: inv.role, status: invitationStatus(inv, now), expires_at: inv.expiresAt.toISOString(), created_at: inv.createdAt.toISOString() };
}

function sameSecret(secret: string, hash: string): boolean {
  const a = Buffer.from(sha256(secret), "hex");
  const b = Buffer.from(hash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The user's membership and company when their role is one of `roles` and the company is not declined, else 404. */
export async function memberWithRole(dbOrTx: Db, userId: number, roles: readonly TradeRole[]) {
  const row = await membershipOf(dbOrTx, userId);
  if (!row || !roles.includes(row.member.role) || row.account.state === "declined") throw new HttpError(404, NOT_FOUND);
  return row;
}

/**
 * A company's users and invitations (issue 7). Owners and admins manage; an
 * admin cannot touch an owner; an account always keeps one owner. Anyone
 * outside the company, or without the right, gets 404.
 */
export function createTradeUsersService(db: Db, options: { mail: Outbox; appName: string; publicUrl: string; now?: () => Date }) {
  const now = options.now ?? (() => new Date());
  const layout = { appName: options.appName, publicUrl: options.publicUrl };

  /** The acting member when they may manage users, else 404. Inside a transaction pass `tx`. */
  const manager = (dbOrTx: Db, userId: number) => memberWithRole(dbOrTx, userId, MANAGERS);

  /** The account row locked: membership changes of one account queue up behind each other. */
  async function lockAccount(tx: Db, accountId: number) {
    await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
  }

  async function owners(tx: Db, accountId: number): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(tradeMembers).where(and(eq(tradeMembers.tradeAccountId, accountId), eq(tradeMembers.role, "owner")));
    return row?.n ?? 0;
  }

  async function target(tx: Db, accountId: number, targetUserId: number) {
    const [row] = await tx
      .select()
      .from(tradeMembers)
      .where(and(eq(tradeMembers.tradeAccountId, accountId), eq(tradeMembers.userId, targetUserId)))
      .for("update");
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  async function invitationOf(dbOrTx: Db, accountId: number, invitationId: number) {
    const [inv] = await dbOrTx
      .select()
      .from(tradeInvitations)
      .where(and(eq(tradeInvitations.id, invitationId), eq(tradeInvitations.tradeAccountId, accountId)))
      .for("update");
    if (!inv) throw new HttpError(404, NOT_FOUND);
    return inv;
  }

  /** A new invitation link's secret (the email carries it, the database keeps its hash) and when it expires: INVITATION_DAYS from `at`. */
  function freshLink(at: Date) {
    const secret = randomBytes(32).toString("base64url");
    return { secret, tokenHash: sha256(secret), expiresAt: new Date(at.getTime() + INVITATION_DAYS * 86_400_000) };
  }

  /** Emails the invitation with its link, in the name of the user who sent it. */
  async function sendInvitation(tx: Db, inv: TradeInvitation, secret: string, companyName: string, inviterId: number) {
    const [sender] = await tx.select().from(users).where(eq(users.id, inviterId));
    const inviter = `${sender!.firstname} ${sender!.lastname}`;
    const url = `${options.publicUrl}/trade/invitation?token=${encodeURIComponent(`${inv.id}|${secret}`)}`;
    const mail = renderEmail({
      ...layout,
      title: `Join ${companyName} on ${options.appName}`,
      paragraphs: [
        `${inviter} has invited you to join the trade account of ${companyName} as ${inv.role === "accounts" ? "an accounts user" : `${inv.role === "admin" || inv.role === "owner" ? "an" : "a"} ${inv.role}`}.`,
        `Sign in or register with this email address (${inv.email}) to accept. The link works once and expires in ${INVITATION_DAYS} days.`,
      ],
      action: { label: "Accept the invitation", url },
    });
    await options.mail.enqueue(tx, { to: inv.email, subject: `Invitation to join ${companyName}`, ...mail });
  }

  function noOwnerByAdmin(actorRole: TradeRole, ...roles: TradeRole[]) {
    if (actorRole !== "owner" && roles.includes("owner")) throw new HttpError(403, "Only an owner can change, remove or invite an owner.");
  }

  async function usersOf(accountId: number, onlyUserId?: number): Promise<TradeUserJson[]> {
    const lastActive = db
      .select({ userId: accessTokens.userId, at: max(accessTokens.lastUsedAt).as("at") })
      .from(accessTokens)
      .groupBy(accessTokens.userId)
      .as("last_active");
    const rows = await db
      .select({ member: tradeMembers, user: users, lastActive: lastActive.at })
      .from(tradeMembers)
      .innerJoin(users, eq(users.id, tradeMembers.userId))
      .leftJoin(lastActive, eq(lastActive.userId, tradeMembers.userId))
      .where(and(eq(tradeMembers.tradeAccountId, accountId), onlyUserId === undefined ? undefined : eq(tradeMembers.userId, onlyUserId)))
      .orderBy(asc(users.lastname), asc(users.firstname), asc(users.id));
    return rows.map(({ member, user, lastActive: seen }) => ({
      id: user.id,
      name: `${user.firstname} ${user.lastname}`,
      email: user.email,
      role: member.role,
      status: "active" as const,
      last_active_at: seen ? new Date(seen as unknown as string | Date).toISOString() : null,
      joined_at: member.createdAt.toISOString(),
    }));
  }

  return {
    /** The company's users (name, email, role, status, last active) and its open invitations. */
    async list(userId: number): Promise<{ users: TradeUserJson[]; invitations: TradeInvitationJson[] }> {
      const { account } = await manager(db, userId);
      const rows = await usersOf(account.id);
      const invitations = await db
        .select()
        .from(tradeInvitations)
        .where(and(eq(tradeInvitations.tradeAccountId, account.id), isNull(tradeInvitations.acceptedAt), isNull(tradeInvitations.revokedAt)))
        .orderBy(asc(tradeInvitations.createdAt), asc(tradeInvitations.id));
      const at = now();
      return {
        users: rows,
        invitations: invitations.map((inv) => toInvitationJson(inv, at)),
      };
    },

    /** Invites by email with a role; an earlier open invitation to the same email is replaced. */
    async invite(userId: number, input: { email: string; role: TradeRole }): Promise<TradeInvitationJson> {
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { member, account } = await manager(tx, userId);
        noOwnerByAdmin(member.role, input.role);
        await lockAccount(tx, account.id);
        const [already] = await tx
          .select({ id: tradeMembers.id })
          .from(tradeMembers)
          .innerJoin(users, eq(users.id, tradeMembers.userId))
          .where(and(eq(tradeMembers.tradeAccountId, account.id), eq(users.email, input.email)));
        if (already) throw new HttpError(409, "That person is already a user of your trade account.");
        const at = now();
        await tx
          .update(tradeInvitations)
          .set({ revokedAt: at })
          .where(and(eq(tradeInvitations.tradeAccountId, account.id), eq(tradeInvitations.email, input.email), isNull(tradeInvitations.acceptedAt), isNull(tradeInvitations.revokedAt)));
        const { secret, tokenHash, expiresAt } = freshLink(at);
        const [inv] = await tx.insert(tradeInvitations).values({ tradeAccountId: account.id, email: input.email, role: input.role, tokenHash, invitedBy: userId, expiresAt }).returning();
        await sendInvitation(tx, inv!, secret, account.companyName, userId);
        return toInvitationJson(inv!, at);
      });
      options.mail.kick?.();
      return result;
    },

    /** Sends an open invitation again with a fresh link and a fresh 7 days; the old link stops working. */
    async resend(userId: number, invitationId: number): Promise<TradeInvitationJson> {
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { member, account } = await manager(tx, userId);
        await lockAccount(tx, account.id);
        const inv = await invitationOf(tx, account.id, invitationId);
        noOwnerByAdmin(member.role, inv.role);
        if (inv.acceptedAt || inv.revokedAt) throw new HttpError(409, "This invitation was already accepted or revoked.");
        const at = now();
        const { secret, tokenHash, expiresAt } = freshLink(at);
        const [updated] = await tx.update(tradeInvitations).set({ tokenHash, expiresAt }).where(eq(tradeInvitations.id, inv.id)).returning();
        await sendInvitation(tx, updated!, secret, account.companyName, userId);
        return toInvitationJson(updated!, at);
      });
      options.mail.kick?.();
      return result;
    },

    /** Withdraws an open invitation; its link stops working. */
    async revoke(userId: number, invitationId: number): Promise<void> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { member, account } = await manager(tx, userId);
        await lockAccount(tx, account.id);
        const inv = await invitationOf(tx, account.id, invitationId);
        noOwnerByAdmin(member.role, inv.role);
        if (inv.acceptedAt) throw new HttpError(409, "This invitation was already accepted.");
        if (!inv.revokedAt) await tx.update(tradeInvitations).set({ revokedAt: now() }).where(eq(tradeInvitations.id, inv.id));
      });
    },

    /**
     * The signed-in invitee accepts: the token must be right, open, unexpired,
     * and sent to this user's email; they must not belong to another account.
     */
    async accept(userId: number, token: string): Promise<{ trade_account_id: number; role: TradeRole }> {
      const parsed = parseToken(token);
      if (!parsed) throw new HttpError(404, "This invitation link is not valid.");
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
        if (!user) throw new HttpError(401, "Unauthenticated.");
        const [seen] = await tx.select({ accountId: tradeInvitations.tradeAccountId }).from(tradeInvitations).where(eq(tradeInvitations.id, parsed.id));
        if (!seen) throw new HttpError(404, "This invitation link is not valid.");
        // The account first, then the invitation: the same order as invite and resend, so they cannot deadlock.
        await lockAccount(tx, seen.accountId);
        const [inv] = await tx.select().from(tradeInvitations).where(eq(tradeInvitations.id, parsed.id)).for("update");
        if (!inv || !sameSecret(parsed.secret, inv.tokenHash)) throw new HttpError(404, "This invitation link is not valid.");
        const status = invitationStatus(inv, now());
        if (status !== "pending") {
          throw new HttpError(410, { accepted: "This invitation has already been used.", revoked: "This invitation was withdrawn.", expired: "This invitation has expired. Ask for a new one." }[status]);
        }
        if (inv.email.toLowerCase() !== user.email.toLowerCase()) throw new HttpError(403, "This invitation was sent to a different email address. Sign in with that address to accept it.");
        const [current] = await tx
          .select({ member: tradeMembers, state: tradeAccounts.state })
          .from(tradeMembers)
          .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
          .where(eq(tradeMembers.userId, userId));
        if (current) {
          if (current.state !== "declined") throw new HttpError(409, "You already belong to a trade account.");
          await tx.delete(tradeMembers).where(eq(tradeMembers.id, current.member.id));
        }
        await tx.insert(tradeMembers).values({ tradeAccountId: inv.tradeAccountId, userId, role: inv.role });
        await tx.update(users).set({ tradeAccountId: inv.tradeAccountId, updatedAt: sql`now()` }).where(eq(users.id, userId));
        await tx.update(tradeInvitations).set({ acceptedAt: now(), acceptedBy: userId }).where(eq(tradeInvitations.id, inv.id));
        return { trade_account_id: inv.tradeAccountId, role: inv.role };
      });
    },

    /** Changes a user's role. The account row is locked so two demotions at once cannot remove the last owner. */
    async setRole(userId: number, targetUserId: number, role: TradeRole): Promise<TradeUserJson> {
      const accountId = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { account } = await manager(tx, userId);
        await lockAccount(tx, account.id);
        // Read again behind the lock: the actor's own role may just have changed.
        const { member } = await manager(tx, userId);
        const row = await target(tx, account.id, targetUserId);
        noOwnerByAdmin(member.role, row.role, role);
        if (row.role === "owner" && role !== "owner" && (await owners(tx, account.id)) <= 1) throw new HttpError(409, "An account always keeps at least one owner. Make someone else an owner first.");
        await tx.update(tradeMembers).set({ role }).where(eq(tradeMembers.id, row.id));
        return account.id;
      });
      const [user] = await usersOf(accountId, targetUserId);
      if (!user) throw new HttpError(404, NOT_FOUND);
      return user;
    },

    /** Removes a user from the company; they keep their shop account. The last owner cannot be removed. */
    async remove(userId: number, targetUserId: number): Promise<void> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { account } = await manager(tx, userId);
        await lockAccount(tx, account.id);
        const { member } = await manager(tx, userId);
        const row = await target(tx, account.id, targetUserId);
        noOwnerByAdmin(member.role, row.role);
        if (row.role === "owner" && (await owners(tx, account.id)) <= 1) throw new HttpError(409, "An account always keeps at least one owner. Make someone else an owner first.");
        await tx.delete(tradeMembers).where(eq(tradeMembers.id, row.id));
        await tx.update(users).set({ tradeAccountId: null, updatedAt: sql`now()` }).where(eq(users.id, targetUserId));
      });
    },
  };
}

export type TradeUsersService = ReturnType<typeof createTradeUsersService>;
