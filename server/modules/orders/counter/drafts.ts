// Drafts of orders taken by staff (issue 34): the form saved as it was, to
// reopen and finish (place) or delete later. Nothing is reserved or charged
// by a draft. Every change is audited.
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { users } from "../../auth/schema.ts";
import { staff } from "../../staff/schema.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { orderDrafts } from "../schema.ts";
import type { DraftInput } from "./contract.ts";

export interface DraftJson {
  id: number;
  label: string;
  customer_id: number | null;
  staff_name: string | null;
  payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

const NOT_FOUND = "Draft not found: it may have been placed or deleted.";
export const DRAFTS_MAX = 100;

/** The account a draft is for, when its form named one. */
const customerIdOf = (payload: Record<string, unknown>): number | null => {
  const id = Number(payload.customer_id);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
};

export function createOrderDrafts(db: Db) {
  const columns = { id: orderDrafts.id, label: orderDrafts.label, userId: orderDrafts.userId, staffName: staff.name, payload: orderDrafts.payload, createdAt: orderDrafts.createdAt, updatedAt: orderDrafts.updatedAt };
  type Row = { id: number; label: string; userId: number | null; staffName: string | null; payload: Record<string, unknown>; createdAt: Date; updatedAt: Date };
  const json = (r: Row): DraftJson => ({ id: r.id, label: r.label, customer_id: r.userId, staff_name: r.staffName, payload: r.payload, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() });

  async function one(id: number): Promise<DraftJson> {
    const [row] = await db.select(columns).from(orderDrafts).leftJoin(staff, eq(staff.id, orderDrafts.staffId)).where(eq(orderDrafts.id, id));
    if (!row) throw new HttpError(404, NOT_FOUND);
    return json(row);
  }

  /** A customer id that is no account any more is dropped, not refused: a draft keeps what it can. */
  async function userIdFor(tx: Db, payload: Record<string, unknown>): Promise<number | null> {
    const id = customerIdOf(payload);
    if (id === null) return null;
    const [found] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
    return found ? id : null;
  }

  return {
    /** Newest first: every member's drafts, as the counter shares its work. */
    async list(actor: StaffActor): Promise<DraftJson[]> {
      authorize(actor, "orders.create");
      const rows = await db.select(columns).from(orderDrafts).leftJoin(staff, eq(staff.id, orderDrafts.staffId)).orderBy(desc(orderDrafts.updatedAt), desc(orderDrafts.id)).limit(DRAFTS_MAX);
      return rows.map(json);
    },

    async get(actor: StaffActor, id: number): Promise<DraftJson> {
      authorize(actor, "orders.create");
      return one(id);
    },

    async save(actor: StaffActor, input: DraftInput, id?: number): Promise<DraftJson> {
      authorize(actor, "orders.create");
      const saved = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const values = { label: input.label ?? "", payload: input.payload, userId: await userIdFor(tx, input.payload), staffId: actor.staffId };
        if (id === undefined) {
          const [made] = await tx.insert(orderDrafts).values(values).returning({ id: orderDrafts.id });
          await recordAudit(tx, actor, { action: "order_draft.created", entity: "order_draft", entityId: made!.id, after: { label: values.label } });
          return made!.id;
        }
        const [changed] = await tx.update(orderDrafts).set({ ...values, updatedAt: sql`now()` }).where(eq(orderDrafts.id, id)).returning({ id: orderDrafts.id });
        if (!changed) throw new HttpError(404, NOT_FOUND);
        await recordAudit(tx, actor, { action: "order_draft.updated", entity: "order_draft", entityId: id, after: { label: values.label } });
        return id;
      });
      return one(saved);
    },

    async remove(actor: StaffActor, id: number): Promise<void> {
      authorize(actor, "orders.create");
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [gone] = await tx.delete(orderDrafts).where(eq(orderDrafts.id, id)).returning({ label: orderDrafts.label });
        if (!gone) throw new HttpError(404, NOT_FOUND);
        await recordAudit(tx, actor, { action: "order_draft.deleted", entity: "order_draft", entityId: id, before: { label: gone.label } });
      });
    },
  };
}

export type OrderDrafts = ReturnType<typeof createOrderDrafts>;
