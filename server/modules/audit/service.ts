import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { londonDayAfter, londonDayStart } from "../../lib/london.ts";
import type { Db } from "../../db/client.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { staff } from "../staff/schema.ts";
import { auditLog } from "./schema.ts";

export interface AuditChange {
  /** What was done, `order.transition`, `staff.role_changed`: entity, a dot, a verb. */
  action: string;
  /** The kind of thing changed: `order`, `customer`, `staff`, `trade_account`, `invoice`. */
  entity: string;
  /** Its id as the back office names it (an order's number, a customer's id). */
  entityId: string | number;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

type Plain = Record<string, unknown>;

/** Only the fields that changed, on each side: the entry says what moved, not the whole row. */
export function changedFields(before: Plain | null | undefined, after: Plain | null | undefined): { before: Plain | null; after: Plain | null } {
  if (!before || !after) return { before: before ?? null, after: after ?? null };
  const b: Plain = {};
  const a: Plain = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    b[key] = before[key] ?? null;
    a[key] = after[key] ?? null;
  }
  return { before: b, after: a };
}

/**
 * Records a staff write. Call it with the transaction that makes the change,
 * so the entry and the change commit together or not at all (ADR 0030).
 */
export async function recordAudit(tx: Db, actor: StaffActor, change: AuditChange): Promise<void> {
  const { before, after } = changedFields(change.before, change.after);
  await tx.insert(auditLog).values({
    staffId: actor.staffId,
    staffName: actor.email === "system" ? "system" : `${actor.name} <${actor.email}>`,
    via: actor.via,
    tokenName: actor.tokenName ?? null,
    action: change.action,
    entity: change.entity,
    entityId: String(change.entityId),
    before,
    after,
  });
}

export interface AuditFilters {
  staff_id?: number;
  entity?: string;
  entity_id?: string;
  action?: string;
  /** Calendar days, `YYYY-MM-DD`, inclusive, in London time. */
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

export const AUDIT_PAGE = 50;

/** The audit log, newest first, a keyset page at a time. */
export function createAuditService(db: Db) {
  async function list(actor: StaffActor, filters: AuditFilters) {
    authorize(actor, "audit.view");
    return entries(filters);
  }

  /** One entity's history, for its own page: allowed to whoever may open that page (the caller checks). */
  async function forEntity(entity: string, entityId: string | number, limit = 100) {
    return (await entries({ entity, entity_id: String(entityId), limit })).data;
  }

  async function entries(filters: AuditFilters) {
    const limit = Math.min(Math.max(filters.limit ?? AUDIT_PAGE, 1), 200);
    const where: SQL[] = [];
    if (filters.staff_id) where.push(eq(auditLog.staffId, filters.staff_id));
    if (filters.entity) where.push(eq(auditLog.entity, filters.entity));
    if (filters.entity_id) where.push(eq(auditLog.entityId, filters.entity_id));
    if (filters.action) where.push(eq(auditLog.action, filters.action));
    if (filters.from) where.push(sql`${auditLog.at} >= ${londonDayStart(filters.from)}`);
    if (filters.to) where.push(sql`${auditLog.at} < ${londonDayAfter(filters.to)}`);
    const cursor = filters.cursor ? Number(filters.cursor) : NaN;
    if (Number.isSafeInteger(cursor) && cursor > 0) where.push(lt(auditLog.id, cursor));
    const rows = await db
      .select({ entry: auditLog, staffEmail: staff.email, staffRole: staff.role })
      .from(auditLog)
      .innerJoin(staff, eq(staff.id, auditLog.staffId))
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    return {
      data: page.map(({ entry }) => ({
        id: entry.id,
        at: entry.at.toISOString(),
        staff: { id: entry.staffId, name: entry.staffName },
        via: entry.via,
        token_name: entry.tokenName,
        action: entry.action,
        entity: entry.entity,
        entity_id: entry.entityId,
        before: (entry.before ?? null) as Plain | null,
        after: (entry.after ?? null) as Plain | null,
      })),
      next_cursor: rows.length > limit ? String(page[page.length - 1]!.entry.id) : null,
    };
  }

  /** Who may be chosen in the log's staff filter: every member, removed ones too (their entries stay). */
  async function staffOptions(actor: StaffActor) {
    authorize(actor, "audit.view");
    return db.select({ id: staff.id, name: staff.name, email: staff.email }).from(staff).orderBy(staff.name);
  }

  return { list, forEntity, staffOptions };
}

export type AuditService = ReturnType<typeof createAuditService>;
