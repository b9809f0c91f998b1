import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ValidationError } from "../../http-errors.ts";
import { passwordChangedEmail, passwordResetEmail, welcomeEmail } from "../mail/templates.ts";
import type { UserJson } from "./contract.ts";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./passwords.ts";
import { type User, passwordResetTokens, users } from "./schema.ts";
import { issueAccessToken, revokeAccessToken, revokeUserTokens, sha256 } from "./tokens.ts";

export const INVALID_CREDENTIALS = "These credentials do not match our records.";
export const RECOVERY_SENT = "If that address has an account, we have emailed a link to reset the password.";
export const INVALID_RESET_TOKEN = "This password reset link is invalid or has expired.";
export const RECOVERY_TOKEN_MINUTES = 60;
/** Staff blocked the account (the back office's customers desk): said plainly, only to someone who knows the password or holds a reset link. */
export const ACCOUNT_BLOCKED = "This account is blocked. Contact the shop.";

type OutboxMessage = { to: string; subject: string; html: string; text: string; attachments?: { filename: string; contentType: string; content: Buffer | Uint8Array }[] };

/** What the auth service (and the rest of the shop) needs of the mail module: put messages in the outbox. */
export interface Outbox {
  enqueue(tx: Db, message: OutboxMessage): Promise<number>;
  /** Several at once, in one insert: an order's two emails are one round trip inside its transaction (issue 35). Their ids, in order. */
  enqueueAll(tx: Db, messages: readonly OutboxMessage[]): Promise<number[]>;
  kick?(): void;
}

export interface AuthServiceOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
}

/** Who a user is, as the storefront and the customer desk both show them: names, email and phone. */
export function userContactJson(user: Pick<User, "id" | "firstname" | "lastname" | "email" | "phone">) {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    name: `${user.firstname} ${user.lastname}`.trim(),
    email: user.email,
    phone: user.phone,
  };
}

export function toUserJson(user: User): UserJson {
  return {
    ...userContactJson(user),
    is_trade: user.tradeAccountId !== null,
    trade_account_id: user.tradeAccountId,
  };
}

/**
 * A single-use recovery link, valid for RECOVERY_TOKEN_MINUTES, emailed
 * through the outbox in the caller's transaction: the storefront's "forgotten
 * password" and the back office's "send a reset link" are this one piece.
 */
export async function queueRecoveryLink(
  tx: Db,
  options: AuthServiceOptions,
  user: Pick<User, "id" | "email" | "firstname">,
  now = new Date(),
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const url = `${options.publicUrl}/auth/recovery?${new URLSearchParams({ token, email: user.email })}`;
  const expiresAt = new Date(now.getTime() + RECOVERY_TOKEN_MINUTES * 60_000);
  // Only the newest link works.
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
  await tx.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256(token), expiresAt });
  const mail = passwordResetEmail({ appName: options.appName, publicUrl: options.publicUrl, firstname: user.firstname, url, expiresInMinutes: RECOVERY_TOKEN_MINUTES });
  await options.mail.enqueue(tx, { to: user.email, ...mail });
  return { url, expiresAt };
}

export function createAuthService(db: Db, options: AuthServiceOptions) {
  const mailBase = { appName: options.appName, publicUrl: options.publicUrl };

  async function findByEmail(email: string): Promise<User | undefined> {
    const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return user;
  }

  /** A valid, unused, unexpired recovery token for this email, or null. */
  async function findResetToken(email: string, token: string, now: Date) {
    const [row] = await db
      .select({ id: passwordResetTokens.id, user: users })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(
        and(
          eq(passwordResetTokens.tokenHash, sha256(token)),
          eq(users.email, email),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .limit(1);
    // The holder of the link has the mailbox: telling them the account is blocked gives nothing away.
    if (row?.user.blockedAt) throw new ValidationError({ token: [ACCOUNT_BLOCKED] });
    return row ?? null;
  }

  return {
    findByEmail,

    async register(input: { firstname: string; lastname: string; email: string; password: string; newsletter: boolean }) {
      const passwordHash = await hashPassword(input.password);
      try {
        return await db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const [user] = await tx
            .insert(users)
            .values({
              email: input.email,
              firstname: input.firstname,
              lastname: input.lastname,
              passwordHash,
              newsletterSubscribed: input.newsletter,
            })
            .returning();
          if (!user) throw new Error("could not create the user");
          const mail = welcomeEmail({ ...mailBase, firstname: user.firstname });
          await options.mail.enqueue(tx, { to: user.email, ...mail });
          const token = await issueAccessToken(tx, user.id, false);
          return { user, ...token };
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new ValidationError({ email: ["An account with this email address already exists. Sign in, or reset your password."] });
        }
        throw error;
      } finally {
        options.mail.kick?.();
      }
    },

    /** Checks the password; an unknown email costs the same time as a wrong password. */
    async verifyCredentials(email: string, password: string): Promise<User | null> {
      const user = await findByEmail(email);
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
      return user && ok ? user : null;
    },

    /** Signs in: a new token, and the browser's previous one (if any) revoked. */
    async signIn(user: User, remember: boolean, previousTokenId: number | null) {
      if (previousTokenId) await revokeAccessToken(db, previousTokenId);
      return issueAccessToken(db, user.id, remember);
    },

    signOut: (tokenId: number) => revokeAccessToken(db, tokenId),

    /**
     * Emails a single-use link when the address has an account that is not
     * blocked; says nothing either way, so the answer tells no one which.
     */
    async requestRecovery(email: string, now = new Date()): Promise<void> {
      const user = await findByEmail(email);
      if (!user || user.blockedAt) return;
      await db.transaction((t) => queueRecoveryLink(t as unknown as Db, options, user, now));
      options.mail.kick?.();
    },

    async checkRecoveryToken(email: string, token: string, now = new Date()): Promise<void> {
      if (!(await findResetToken(email, token, now))) throw new ValidationError({ token: [INVALID_RESET_TOKEN] });
    },

    /** Sets the new password, spends the token and signs the user out everywhere. */
    async resetPassword(email: string, token: string, password: string, now = new Date()): Promise<void> {
      const found = await findResetToken(email, token, now);
      if (!found) throw new ValidationError({ token: [INVALID_RESET_TOKEN] });
      const passwordHash = await hashPassword(password);
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // Spending the token is the guard: of two concurrent resets only one updates a row.
        const spent = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.id, found.id), isNull(passwordResetTokens.usedAt)))
          .returning({ id: passwordResetTokens.id });
        if (spent.length === 0) throw new ValidationError({ token: [INVALID_RESET_TOKEN] });
        await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, found.user.id));
        await revokeUserTokens(tx, found.user.id);
        const mail = passwordChangedEmail({ ...mailBase, firstname: found.user.firstname });
        await options.mail.enqueue(tx, { to: found.user.email, ...mail });
      });
      options.mail.kick?.();
    },

    /** Changes a signed-in user's password and signs out their other sessions. */
    async changePassword(user: User, currentPassword: string, password: string, keepTokenId: number | null): Promise<void> {
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        throw new ValidationError({ current_password: ["The current password is incorrect."] });
      }
      const passwordHash = await hashPassword(password);
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
        await revokeUserTokens(tx, user.id, keepTokenId ?? undefined);
        const mail = passwordChangedEmail({ ...mailBase, firstname: user.firstname });
        await options.mail.enqueue(tx, { to: user.email, ...mail });
      });
      options.mail.kick?.();
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
