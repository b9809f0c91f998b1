import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError, parseInput } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { branches } from "../branches/schema.ts";
import { dummyPasswordHash, hashPassword, newPassword, verifyPassword } from "../auth/passwords.ts";
import { sha256 } from "../auth/tokens.ts";
import { type StaffActor, authorize, requireSession } from "./actor.ts";
import { ROLE_LABELS, type StaffRole } from "./permissions.ts";
import { type Staff, staff, staffApiTokens, staffRecoveryCodes, staffSessions, staffSetupTokens } from "./schema.ts";
import { API_TOKEN_PREFIX, REAUTH_WINDOW_MS, issueStaffSession, revokeStaffSession, revokeStaffSessions, secretToken } from "./sessions.ts";
import { checkTotp, newTotpSecret, totpQrSvg, totpUri } from "./totp.ts";

export const STAFF_INVALID_CREDENTIALS = "These details do not match a member of staff.";
export const TOTP_NEEDED = "Enter the 6-digit code from your authenticator app, or a recovery code.";
export const TOTP_WRONG = "That code is not right. Check your authenticator app and try again, or use a recovery code.";
export const TOTP_REQUIRED_IN_PRODUCTION = "Two-factor sign-in is required. Ask an owner for a new set-up link to enrol your authenticator app.";
export const REAUTH_REQUIRED = "Confirm your password to continue.";
export const SETUP_LINK_INVALID = "This set-up link is invalid, used or expired. Ask an owner for a new one.";
export const SETUP_LINK_HOURS = 24;
const RECOVERY_CODES = 10;

export interface StaffJson {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  role_label: string;
  totp_enabled: boolean;
  set_up: boolean;
  refund_limit: number;
  removed: boolean;
  created_at: string;
  branch_ids: number[];
  branches_only: boolean;
}

export function toStaffJson(member: Staff): StaffJson {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role,
    role_label: ROLE_LABELS[member.role],
    totp_enabled: member.totpSecret !== null,
    set_up: member.passwordHash !== null,
    refund_limit: member.refundLimit / 100,
    removed: member.removedAt !== null,
    created_at: member.createdAt.toISOString(),
    branch_ids: [...member.branchIds],
    branches_only: member.branchesOnly,
  };
}

/** What an audit entry keeps of a member: never a hash or a secret. */
const audited = (m: Staff) => ({ email: m.email, name: m.name, role: m.role, refund_limit: m.refundLimit, removed: m.removedAt !== null, branch_ids: m.branchIds, branches_only: m.branchesOnly });

/** `abcde-fghij`: 50 random bits, easy to read out and type. */
function recoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}
const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, "");

export const staffInviteBody = z.object({
  email: z.email({ error: "Enter a valid email address." }).max(254).transform((e) => e.trim().toLowerCase()),
  name: z.string({ error: "Enter their name." }).trim().min(1, "Enter their name.").max(120, "The name must be at most 120 characters."),
  role: z.enum(["owner", "manager", "sales", "warehouse", "hire", "accounts"], { error: "Choose a role." }),
});

export interface StaffServiceOptions {
  appName: string;
  publicUrl: string;
  /** Two-factor sign-in is required for everyone in production. */
  requireTotp: boolean;
}

/** The owners who can act: not removed, and not the CLI's own member. */
export const activeOwners = and(eq(staff.role, "owner"), isNull(staff.removedAt), eq(staff.isSystem, false));

export function createStaffService(db: Db, options: StaffServiceOptions) {
  async function byEmail(email: string): Promise<Staff | undefined> {
    const [member] = await db.select().from(staff).where(and(eq(staff.email, email.trim()), isNull(staff.removedAt), eq(staff.isSystem, false))).limit(1);
    return member;
  }

  /** Takes a recovery code (once): true when it was one of the member's unused codes. */
  async function spendRecoveryCode(tx: Db, staffId: number, code: string): Promise<boolean> {
    const used = await tx
      .update(staffRecoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(staffRecoveryCodes.staffId, staffId), eq(staffRecoveryCodes.codeHash, sha256(normaliseRecoveryCode(code))), isNull(staffRecoveryCodes.usedAt)))
      .returning({ id: staffRecoveryCodes.id });
    return used.length > 0;
  }

  /**
   * A TOTP code (never the same step twice) or a recovery code. The step is
   * recorded with a conditional update, so two sign-ins racing with one code
   * cannot both pass.
   */
  async function secondFactor(member: Staff, code: string): Promise<boolean> {
    if (!member.totpSecret) return true;
    const step = await checkTotp(member.totpSecret, code, member.totpLastStep);
    if (step !== null) {
      const taken = await db
        .update(staff)
        .set({ totpLastStep: step })
        .where(and(eq(staff.id, member.id), sql`coalesce(${staff.totpLastStep}, -1) < ${step}`))
        .returning({ id: staff.id });
      return taken.length > 0;
    }
    return /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code.trim()) && spendRecoveryCode(db, member.id, code);
  }

  async function recoveryCodesFor(tx: Db, staffId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
    await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ staffId, codeHash: sha256(normaliseRecoveryCode(c)) })));
    return codes;
  }

  async function setupLink(tx: Db, staffId: number): Promise<{ url: string; expiresAt: Date }> {
    const token = secretToken();
    const expiresAt = new Date(Date.now() + SETUP_LINK_HOURS * 3_600_000);
    // A new link replaces any earlier one.
    await tx.delete(staffSetupTokens).where(eq(staffSetupTokens.staffId, staffId));
    await tx.insert(staffSetupTokens).values({ staffId, tokenHash: sha256(token), expiresAt });
    return { url: `${options.publicUrl}/admin/setup/${token}`, expiresAt };
  }

  async function setupToken(token: string) {
    const [row] = await db
      .select({ tokenId: staffSetupTokens.id, member: staff })
      .from(staffSetupTokens)
      .innerJoin(staff, eq(staff.id, staffSetupTokens.staffId))
      .where(and(eq(staffSetupTokens.tokenHash, sha256(token)), isNull(staffSetupTokens.usedAt), gt(staffSetupTokens.expiresAt, sql`now()`), isNull(staff.removedAt)))
      .limit(1);
    if (!row) throw new HttpError(404, SETUP_LINK_INVALID);
    return row;
  }

  async function pendingSecret(member: Staff): Promise<string> {
    if (member.totpPendingSecret) return member.totpPendingSecret;
    const secret = newTotpSecret();
    await db.update(staff).set({ totpPendingSecret: secret }).where(eq(staff.id, member.id));
    return secret;
  }

  async function enrolment(member: Staff) {
    const secret = await pendingSecret(member);
    const uri = totpUri(secret, member.email, options.appName);
    return { secret, uri, qr_svg: await totpQrSvg(uri) };
  }

  /** The session's last password check, for sensitive actions: within 5 minutes, or 403 asking for it. */
  async function requireRecentPassword(actor: StaffActor): Promise<void> {
    const sessionId = requireSession(actor);
    if (sessionId === null) return;
    const [session] = await db.select({ at: staffSessions.reauthenticatedAt }).from(staffSessions).where(eq(staffSessions.id, sessionId)).limit(1);
    if (!session || Date.now() - session.at.getTime() > REAUTH_WINDOW_MS) throw new HttpError(403, REAUTH_REQUIRED);
  }

  /**
   * Every active owner's row, locked in id order. Taken first by every change
   * to a member, before that member's own row: two owners demoting each other
   * at once then queue here rather than deadlock, and the second sees the
   * first's change.
   */
  async function lockOwners(tx: Db): Promise<number[]> {
    const owners = await tx
      .select({ id: staff.id })
      .from(staff)
      .where(activeOwners)
      .orderBy(asc(staff.id))
      .for("update");
    return owners.map((o) => o.id);
  }

  /** A member demoted a moment ago by another owner acts no longer as one, whatever their request read at its start. */
  function stillAnOwner(owners: number[], actor: StaffActor): void {
    if (actor.sessionId && !owners.includes(actor.staffId)) throw new HttpError(403, "Your role has changed. Sign in again.");
  }

  /** Refuses a change that would leave the shop with no owner. */
  function keepAnOwner(owners: number[], leaving: Staff): void {
    if (leaving.role === "owner" && owners.every((id) => id === leaving.id)) throw new HttpError(409, "The shop must keep at least one owner. Make someone else an owner first.");
  }

  async function lockedMember(tx: Db, id: number): Promise<Staff> {
    const [member] = await tx.select().from(staff).where(and(eq(staff.id, id), eq(staff.isSystem, false))).for("update");
    if (!member) throw new HttpError(404, "No such member of staff.");
    return member;
  }
  /**
   * A change to one member by an owner: the permission, the password within 5
   * minutes, then in one transaction every owner's row and the member's locked
   * (in that order, ADR 0029), the actor still an owner, and the change.
   */
  async function changeMember<T>(actor: StaffActor, id: number, change: (tx: Db, member: Staff, owners: number[]) => Promise<T>): Promise<T> {
    authorize(actor, "staff.manage");
    await requireRecentPassword(actor);
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const owners = await lockOwners(tx);
      stillAnOwner(owners, actor);
      return change(tx, await lockedMember(tx, id), owners);
    });
  }


  return {
    /**
     * Password, then the second factor. A wrong password and an unknown email
     * give the same 401, after the same argon2 work; only a member whose
     * password was right hears that a code is needed.
     */
    async login(input: { email: string; password: string; totp?: string | undefined }) {
      const member = await byEmail(input.email);
      const passwordOk = await verifyPassword(member?.passwordHash ?? (await dummyPasswordHash()), input.password);
      if (!member || !member.passwordHash || !passwordOk) throw new HttpError(401, STAFF_INVALID_CREDENTIALS);
      if (member.totpSecret) {
        if (!input.totp?.trim()) throw new ValidationError({ totp: [TOTP_NEEDED] });
        if (!(await secondFactor(member, input.totp))) throw new ValidationError({ totp: [TOTP_WRONG] });
      } else if (options.requireTotp) {
        throw new ValidationError({ totp: [TOTP_REQUIRED_IN_PRODUCTION] });
      }
      const session = await issueStaffSession(db, member.id);
      return { staff: toStaffJson(member), token: session.token, sessionId: session.sessionId, expiresAt: session.expiresAt };
    },

    /** A member's name and address by their sign-in email, to tell them of guesses at their password; undefined for no member. */
    async contactOf(email: string): Promise<{ name: string; email: string } | undefined> {
      const member = await byEmail(email);
      return member && { name: member.name, email: member.email };
    },

    /** The password asked again before a sensitive action; opens a 5-minute window on this session. */
    async reauthenticate(actor: StaffActor, password: string): Promise<void> {
      const sessionId = requireSession(actor);
      if (sessionId === null) return;
      const [member] = await db.select().from(staff).where(eq(staff.id, actor.staffId)).limit(1);
      if (!member?.passwordHash || !(await verifyPassword(member.passwordHash, password))) throw new ValidationError({ password: ["That password is not right."] });
      await db.update(staffSessions).set({ reauthenticatedAt: sql`now()` }).where(eq(staffSessions.id, sessionId));
    },

    requireRecentPassword,

    /** Ends one sign-in session (sign out). */
    signOut: (sessionId: number) => revokeStaffSession(db, sessionId),

    async me(actor: StaffActor): Promise<StaffJson> {
      const [member] = await db.select().from(staff).where(eq(staff.id, actor.staffId)).limit(1);
      if (!member) throw new HttpError(401, "Sign in to the back office.");
      return toStaffJson(member);
    },

    /** Owners invite: the member and a one-time set-up link (24 hours), audited. `npm run shop -- staff:create` calls this as `system`. */
    async invite(actor: StaffActor, body: unknown) {
      authorize(actor, "staff.manage");
      await requireRecentPassword(actor);
      const input = parseInput(staffInviteBody, body);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [existing] = await tx.select({ id: staff.id }).from(staff).where(eq(staff.email, input.email)).limit(1);
        if (existing) throw new ValidationError({ email: ["A member of staff already has this email address."] });
        const [member] = await tx.insert(staff).values({ email: input.email, name: input.name, role: input.role }).returning();
        const link = await setupLink(tx, member!.id);
        await recordAudit(tx, actor, { action: "staff.invited", entity: "staff", entityId: member!.id, after: audited(member!) });
        return { staff: toStaffJson(member!), setup_url: link.url, expires_at: link.expiresAt.toISOString() };
      });
    },

    /** A new set-up link for a member who lost theirs, or lost their authenticator (their TOTP is reset). */
    async resendSetup(actor: StaffActor, id: number) {
      return changeMember(actor, id, async (tx, member) => {
        if (member.removedAt) throw new HttpError(409, `${member.name} has been removed.`);
        const link = await setupLink(tx, member.id);
        await tx.update(staff).set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: sql`now()` }).where(eq(staff.id, member.id));
        await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, member.id));
        await revokeStaffSessions(tx, member.id);
        await recordAudit(tx, actor, { action: "staff.setup_link", entity: "staff", entityId: member.id, before: { totp_enabled: member.totpSecret !== null }, after: { totp_enabled: false } });
        return { staff: toStaffJson({ ...member, totpSecret: null }), setup_url: link.url, expires_at: link.expiresAt.toISOString() };
      });
    },

    /** What the set-up page shows: who the link is for, and the authenticator to enrol. */
    async setupDetails(token: string) {
      const { member } = await setupToken(token);
      return { staff: toStaffJson(member), totp_required: options.requireTotp, totp: await enrolment(member) };
    },

    /**
     * The member chooses a password and (required in production) confirms a
     * code from their authenticator; they get ten recovery codes, shown once,
     * and are signed in.
     */
    async completeSetup(token: string, body: { password: string; password_confirmation: string; totp_code?: string | undefined }) {
      const { member, tokenId } = await setupToken(token);
      const errors: Record<string, string[]> = {};
      const password = newPassword.safeParse(body.password);
      if (!password.success) errors.password = password.error.issues.map((i) => i.message);
      else if (body.password !== body.password_confirmation) errors.password_confirmation = ["The passwords do not match."];
      const code = body.totp_code?.trim() ?? "";
      if (!code && options.requireTotp) errors.totp_code = ["Enter the 6-digit code your authenticator app shows."];
      const secret = member.totpPendingSecret;
      const step = code && secret ? await checkTotp(secret, code, null) : null;
      if (code && step === null) errors.totp_code = ["That code is not right. Scan the QR code again and enter the code it shows."];
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const passwordHash = await hashPassword(body.password);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const used = await tx.update(staffSetupTokens).set({ usedAt: sql`now()` }).where(and(eq(staffSetupTokens.id, tokenId), isNull(staffSetupTokens.usedAt))).returning({ id: staffSetupTokens.id });
        if (used.length === 0) throw new HttpError(404, SETUP_LINK_INVALID);
        const enrolled = step !== null;
        await tx
          .update(staff)
          .set({ passwordHash, updatedAt: sql`now()`, ...(enrolled ? { totpSecret: secret, totpPendingSecret: null, totpLastStep: step } : {}) })
          .where(eq(staff.id, member.id));
        const recoveryCodes = enrolled ? await recoveryCodesFor(tx, member.id) : [];
        const self: StaffActor = { staffId: member.id, name: member.name, email: member.email, role: member.role, via: "screen" };
        await recordAudit(tx, self, { action: "staff.set_up", entity: "staff", entityId: member.id, before: { set_up: member.passwordHash !== null }, after: { set_up: true, totp_enabled: enrolled } });
        const session = await issueStaffSession(tx, member.id);
        return { staff: toStaffJson({ ...member, passwordHash, totpSecret: enrolled ? secret : null }), recovery_codes: recoveryCodes, token: session.token };
      });
    },

    /** A signed-in member starts enrolling an authenticator: a secret to scan. */
    async startTotp(actor: StaffActor) {
      // One's own authenticator: never a token's to enrol (it acts in its owner's name).
      requireSession(actor);
      const [member] = await db.select().from(staff).where(eq(staff.id, actor.staffId)).limit(1);
      if (!member) throw new HttpError(401, "Sign in to the back office.");
      if (member.totpSecret) throw new HttpError(409, "Two-factor sign-in is already on.");
      return enrolment(member);
    },

    /** Confirms the enrolment with a code from the app: TOTP is on, and ten recovery codes are shown once. */
    async confirmTotp(actor: StaffActor, code: string) {
      requireSession(actor);
      const [member] = await db.select().from(staff).where(eq(staff.id, actor.staffId)).limit(1);
      if (!member?.totpPendingSecret) throw new HttpError(409, "Start again: scan a new QR code first.");
      const step = await checkTotp(member.totpPendingSecret, code, null);
      if (step === null) throw new ValidationError({ code: ["That code is not right. Enter the code your authenticator app shows now."] });
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.update(staff).set({ totpSecret: member.totpPendingSecret, totpPendingSecret: null, totpLastStep: step, updatedAt: sql`now()` }).where(eq(staff.id, member.id));
        const codes = await recoveryCodesFor(tx, member.id);
        await recordAudit(tx, actor, { action: "staff.totp_enabled", entity: "staff", entityId: member.id, before: { totp_enabled: false }, after: { totp_enabled: true } });
        return { recovery_codes: codes };
      });
    },

    /** Every member, owners first; removed members last. */
    async list(actor: StaffActor) {
      authorize(actor, "staff.manage");
      requireSession(actor);
      const rows = await db.select().from(staff).where(eq(staff.isSystem, false)).orderBy(sql`${staff.removedAt} is not null`, asc(staff.name));
      return rows.map(toStaffJson);
    },

    /** An owner changes a member's role (and a sales member's refund limit); the last owner stays an owner. */
    async update(actor: StaffActor, id: number, change: { role?: StaffRole | undefined; refund_limit?: number | undefined; branch_ids?: number[] | undefined; branches_only?: boolean | undefined }) {
      return changeMember(actor, id, async (tx, member, owners) => {
        if (member.removedAt) throw new HttpError(409, `${member.name} has been removed.`);
        if (change.role && change.role !== member.role) keepAnOwner(owners, member);
        const branchIds = change.branch_ids ? [...new Set(change.branch_ids)] : undefined;
        if (branchIds?.length) {
          const known = await tx.select({ id: branches.id }).from(branches).where(and(inArray(branches.id, branchIds), eq(branches.status, "open")));
          const unknown = branchIds.filter((b) => !known.some((k) => k.id === b));
          if (unknown.length) throw new ValidationError({ branch_ids: [`Choose open branches: there is no open branch ${unknown.join(", ")}.`] });
        }
        if ((change.branches_only ?? member.branchesOnly) && !(branchIds ?? member.branchIds).length) throw new ValidationError({ branch_ids: ["Choose at least one branch to limit them to."] });
        const [updated] = await tx
          .update(staff)
          .set({
            ...(change.role ? { role: change.role } : {}),
            ...(change.refund_limit !== undefined ? { refundLimit: Math.round(change.refund_limit * 100) } : {}),
            ...(branchIds ? { branchIds } : {}),
            ...(change.branches_only !== undefined ? { branchesOnly: change.branches_only } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(staff.id, id))
          .returning();
        // A new role takes effect at once: their sessions end, and they sign in again under it. Branches are read with each request.
        if (change.role && change.role !== member.role) await revokeStaffSessions(tx, id);
        await recordAudit(tx, actor, { action: "staff.updated", entity: "staff", entityId: id, before: audited(member), after: audited(updated!) });
        return toStaffJson(updated!);
      });
    },

    /** Removes a member: signed out at once, kept on record for the audit log; never the last owner. */
    async remove(actor: StaffActor, id: number) {
      return changeMember(actor, id, async (tx, member, owners) => {
        if (member.removedAt) throw new HttpError(409, `${member.name} has already been removed.`);
        keepAnOwner(owners, member);
        const [updated] = await tx.update(staff).set({ removedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(staff.id, id)).returning();
        await revokeStaffSessions(tx, id);
        await tx.update(staffApiTokens).set({ revokedAt: sql`now()` }).where(and(eq(staffApiTokens.createdBy, id), isNull(staffApiTokens.revokedAt)));
        await recordAudit(tx, actor, { action: "staff.removed", entity: "staff", entityId: id, before: audited(member), after: audited(updated!) });
        return toStaffJson(updated!);
      });
    },

    /** Staff API tokens, newest first; the secret is never shown again. */
    async tokens(actor: StaffActor) {
      authorize(actor, "tokens.manage");
      requireSession(actor);
      const rows = await db
        .select({ token: staffApiTokens, by: staff.name })
        .from(staffApiTokens)
        .innerJoin(staff, eq(staff.id, staffApiTokens.createdBy))
        .orderBy(sql`${staffApiTokens.revokedAt} is not null`, sql`${staffApiTokens.id} desc`);
      return rows.map(({ token, by }) => ({
        id: token.id,
        name: token.name,
        role: token.role,
        role_label: ROLE_LABELS[token.role],
        created_by: by,
        created_at: token.createdAt.toISOString(),
        last_used_at: token.lastUsedAt?.toISOString() ?? null,
        revoked: token.revokedAt !== null,
      }));
    },

    /** A new API token: its plain value is in this answer only. */
    async createToken(actor: StaffActor, input: { name: string; role: StaffRole }) {
      authorize(actor, "tokens.manage");
      await requireRecentPassword(actor);
      const secret = secretToken();
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx.insert(staffApiTokens).values({ name: input.name, role: input.role, tokenHash: sha256(secret), createdBy: actor.staffId }).returning();
        await recordAudit(tx, actor, { action: "token.created", entity: "api_token", entityId: row!.id, after: { name: row!.name, role: row!.role } });
        return { id: row!.id, name: row!.name, role: row!.role, token: `${API_TOKEN_PREFIX}${row!.id}|${secret}` };
      });
    },

    async revokeToken(actor: StaffActor, id: number) {
      authorize(actor, "tokens.manage");
      await requireRecentPassword(actor);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx.update(staffApiTokens).set({ revokedAt: sql`now()` }).where(and(eq(staffApiTokens.id, id), isNull(staffApiTokens.revokedAt))).returning();
        if (!row) throw new HttpError(404, "No such token, or it is already revoked.");
        await recordAudit(tx, actor, { action: "token.revoked", entity: "api_token", entityId: id, before: { revoked: false }, after: { revoked: true } });
        return { id, revoked: true };
      });
    },

    /** The CLI's own member (`system`), made by the migration. */
    async systemActor(): Promise<StaffActor> {
      const [member] = await db.select().from(staff).where(eq(staff.isSystem, true)).limit(1);
      if (!member) throw new Error("The system staff member is missing: run the migrations.");
      return { staffId: member.id, name: member.name, email: member.email, role: member.role, via: "cli" };
    },

    /** Owners other than `system`, for tests and the seed. */
    ownerCount: async () => (await db.select({ id: staff.id }).from(staff).where(activeOwners)).length,
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
