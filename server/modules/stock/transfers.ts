import { and, asc, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { lineName } from "../catalog/variants/variant-names.ts";
import { orders } from "../orders/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { applyMovements, lockVariants } from "./ledger.ts";
import { type TransferState, stockTransferLines, stockTransfers } from "./schema.ts";

/**
 * Transfers between branches (issue 30): asked for, sent (the stock leaves the
 * sender as `transfer_out` movements, all or none), received (it arrives as
 * `transfer_in`, and what did not arrive is recorded as the shortfall), or
 * cancelled before sending. In between, it is in transit: on neither shelf,
 * and shown on both branches' levels. Each step is audited and happens once:
 * the transfer's row is locked and its state checked.
 */
export const TRANSFER_LINES_MAX = 200;
export const TRANSFER_QUANTITY_MAX = 100_000;
export const TRANSFERS_PAGE_MAX = 100;

export const transferNumber = (id: number) => `TR-${String(id).padStart(6, "0")}`;

const fromBranch = alias(branches, "from_branch");
const toBranch = alias(branches, "to_branch");

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};

/** What is on its way to and from each branch, of one variant: the stock levels' in-transit figures. */
export async function inTransitOf(db: Db, variantId: number): Promise<Map<number, { incoming: number; outgoing: number }>> {
  const rows = await db
    .select({ from: stockTransfers.fromBranchId, to: stockTransfers.toBranchId, sent: sql<number>`sum(${stockTransferLines.sent})::int` })
    .from(stockTransferLines)
    .innerJoin(stockTransfers, eq(stockTransfers.id, stockTransferLines.transferId))
    .where(and(eq(stockTransferLines.variantId, variantId), eq(stockTransfers.state, "in_transit")))
    .groupBy(stockTransfers.fromBranchId, stockTransfers.toBranchId);
  const byBranch = new Map<number, { incoming: number; outgoing: number }>();
  const at = (id: number) => byBranch.get(id) ?? byBranch.set(id, { incoming: 0, outgoing: 0 }).get(id)!;
  for (const r of rows) {
    at(r.to).incoming += r.sent;
    at(r.from).outgoing += r.sent;
  }
  return byBranch;
}

export function createTransferService(db: Db) {
  /** Transfers with their branches and lines, in the order of `ids`: two queries whatever their number. */
  async function loadMany(tx: Db, ids: number[]) {
    if (ids.length === 0) return [];
    const rows = await tx
      .select({
        transfer: stockTransfers,
        from: { id: fromBranch.id, slug: fromBranch.slug, name: fromBranch.name },
        to: { id: toBranch.id, slug: toBranch.slug, name: toBranch.name },
        order: { number: orders.number },
      })
      .from(stockTransfers)
      .innerJoin(fromBranch, eq(fromBranch.id, stockTransfers.fromBranchId))
      .innerJoin(toBranch, eq(toBranch.id, stockTransfers.toBranchId))
      .leftJoin(orders, eq(orders.id, stockTransfers.orderId))
      .where(inArray(stockTransfers.id, ids));
    const lines = await tx
      .select({ line: stockTransferLines, sku: productVariants.sku, name: products.name, options: productVariants.options })
      .from(stockTransferLines)
      .innerJoin(productVariants, eq(productVariants.id, stockTransferLines.variantId))
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(inArray(stockTransferLines.transferId, ids))
      .orderBy(asc(stockTransferLines.id));
    const byId = new Map(rows.map((r) => [r.transfer.id, r]));
    const linesOf = Map.groupBy(lines, (l) => l.line.transferId);
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const t = row.transfer;
      return [
        {
          id: t.id,
          number: transferNumber(t.id),
          state: t.state,
          from: row.from,
          to: row.to,
          /** The collection order it was raised for: its goods are that order's. */
          order: row.order?.number ? { number: row.order.number } : null,
          note: t.note,
          lines: (linesOf.get(id) ?? []).map((l) => ({
            variant_id: l.line.variantId,
            sku: l.sku,
            name: lineName(l.name, l.options),
            quantity: l.line.quantity,
            sent: l.line.sent,
            received: l.line.received,
            shortfall: l.line.sent !== null && l.line.received !== null ? l.line.sent - l.line.received : null,
          })),
          requested_at: t.createdAt.toISOString(),
          sent_at: t.sentAt?.toISOString() ?? null,
          received_at: t.receivedAt?.toISOString() ?? null,
        },
      ];
    });
  }

  /** One transfer; 404 when there is none. */
  async function load(tx: Db, id: number) {
    const [transfer] = await loadMany(tx, [id]);
    if (!transfer) throw new HttpError(404, "No transfer has that number.");
    return transfer;
  }
  type TransferJson = Awaited<ReturnType<typeof load>>;

  /** Every line's sent or received figure in one statement. */
  async function setLines(tx: Db, id: number, column: "sent" | "received", figures: Map<number, number>): Promise<void> {
    const rows = JSON.stringify([...figures].map(([variant_id, figure]) => ({ variant_id, figure })));
    await tx.execute(sql`
      update ${stockTransferLines} l set ${sql.identifier(column)} = r.figure
      from jsonb_to_recordset(${rows}::jsonb) as r(variant_id int, figure int)
      where l.transfer_id = ${id} and l.variant_id = r.variant_id`);
  }

  /** Locks the transfer for the rest of the transaction and checks it is in the state the step needs. */
  async function lockIn(tx: Db, id: number, state: TransferState, doing: string): Promise<TransferJson> {
    const [locked] = await tx.select({ state: stockTransfers.state }).from(stockTransfers).where(eq(stockTransfers.id, id)).for("update");
    if (!locked) throw new HttpError(404, "No transfer has that number.");
    if (locked.state !== state) throw new HttpError(409, `${transferNumber(id)} is ${locked.state.replace("_", " ")}: it cannot be ${doing} now.`);
    return load(tx, id);
  }

  /** Records a step's figures and state, and audits it: the shortfall on receipt. */
  async function sendOrReceive(tx: Db, actor: StaffActor, transfer: TransferJson, step: "sent" | "received", figures: Map<number, number>): Promise<TransferJson> {
    const now = new Date();
    await setLines(tx, transfer.id, step, figures);
    await tx
      .update(stockTransfers)
      .set(step === "sent" ? { state: "in_transit", sentAt: now, sentBy: actor.staffId, updatedAt: now } : { state: "received", receivedAt: now, receivedBy: actor.staffId, updatedAt: now })
      .where(eq(stockTransfers.id, transfer.id));
    const json = await load(tx, transfer.id);
    const short = json.lines.filter((l) => (l.shortfall ?? 0) > 0);
    await recordAudit(tx, actor, {
      action: step === "sent" ? "stock.transfer_sent" : "stock.transfer_received",
      entity: "transfer",
      entityId: json.number,
      before: { state: step === "sent" ? "requested" : "in_transit" },
      after:
        step === "sent"
          ? { state: "in_transit", sent: json.lines.map((l) => `${l.sku} × ${l.sent}`) }
          : { state: "received", received: json.lines.map((l) => `${l.sku} × ${l.received}`), ...(short.length ? { shortfall: short.map((l) => `${l.sku} × ${l.shortfall}`) } : {}) },
    });
    return json;
  }

  /** Quantities given per SKU (any case), checked against the transfer's own lines; `max` is each line's limit. */
  function givenQuantities(t: TransferJson, field: string, given: { sku: string; quantity: number }[] | undefined, max: (line: TransferJson["lines"][number]) => number, otherwise: (line: TransferJson["lines"][number]) => number) {
    const errors: Errors = {};
    const bySku = new Map(t.lines.map((l) => [l.sku.toLowerCase(), l]));
    const chosen = new Map(t.lines.map((l) => [l.variant_id, otherwise(l)]));
    (given ?? []).forEach((g, i) => {
      const line = bySku.get(g.sku.trim().toLowerCase());
      if (!line) return add(errors, `${field}.${i}.sku`, `Row ${i + 1}: ${g.sku} is not on ${t.number}.`);
      if (!Number.isInteger(g.quantity) || g.quantity < 0 || g.quantity > max(line)) return add(errors, `${field}.${i}.quantity`, `Row ${i + 1}: give a whole number from 0 to ${max(line)} for ${line.sku}.`);
      chosen.set(line.variant_id, g.quantity);
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return chosen;
  }

  return {
    /** A transfer asked for (`POST /api/admin/stock/transfers`): from one open branch to another, SKUs and quantities. */
    async request(actor: StaffActor, input: { from_branch_id: number; to_branch_id: number; lines: { sku: string; quantity: number }[]; note?: string }) {
      authorize(actor, "stock.count");
      const errors: Errors = {};
      if (input.lines.length === 0) add(errors, "lines", "Add at least one line.");
      if (input.lines.length > TRANSFER_LINES_MAX) add(errors, "lines", `At most ${TRANSFER_LINES_MAX} lines at once.`);
      if (input.from_branch_id === input.to_branch_id) add(errors, "to_branch_id", "Choose a different branch to send to.");
      const note = (input.note ?? "").trim();
      if (note.length > 200) add(errors, "note", "The note can be at most 200 characters.");
      const open = await db.select({ id: branches.id }).from(branches).where(and(inArray(branches.id, [input.from_branch_id, input.to_branch_id]), eq(branches.status, "open")));
      if (!open.some((b) => b.id === input.from_branch_id)) add(errors, "from_branch_id", "Choose an open branch to send from.");
      if (!open.some((b) => b.id === input.to_branch_id)) add(errors, "to_branch_id", "Choose an open branch to send to.");
      const wanted = [...new Set(input.lines.map((l) => l.sku.trim().toLowerCase()))];
      const variants = wanted.length
        ? await db.select({ id: productVariants.id, sku: productVariants.sku }).from(productVariants).where(inArray(sql`lower(${productVariants.sku})`, wanted))
        : [];
      const bySku = new Map(variants.map((v) => [v.sku.toLowerCase(), v]));
      const seen = new Set<string>();
      input.lines.forEach((l, i) => {
        const key = l.sku.trim().toLowerCase();
        if (!bySku.has(key)) add(errors, `lines.${i}.sku`, `Row ${i + 1}: no product has the SKU ${l.sku}.`);
        else if (seen.has(key)) add(errors, `lines.${i}.sku`, `Row ${i + 1}: ${l.sku} is on the transfer twice; give one quantity.`);
        seen.add(key);
        if (!Number.isInteger(l.quantity) || l.quantity < 1 || l.quantity > TRANSFER_QUANTITY_MAX) add(errors, `lines.${i}.quantity`, `Row ${i + 1}: give a whole number from 1 to ${TRANSFER_QUANTITY_MAX.toLocaleString("en-GB")}.`);
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [made] = await tx
          .insert(stockTransfers)
          .values({ fromBranchId: input.from_branch_id, toBranchId: input.to_branch_id, note, requestedBy: actor.staffId })
          .returning({ id: stockTransfers.id });
        await tx.insert(stockTransferLines).values(input.lines.map((l) => ({ transferId: made!.id, variantId: bySku.get(l.sku.trim().toLowerCase())!.id, quantity: l.quantity })));
        const json = await load(tx, made!.id);
        await recordAudit(tx, actor, { action: "stock.transfer_requested", entity: "transfer", entityId: json.number, after: { from: json.from.slug, to: json.to.slug, lines: json.lines.map((l) => `${l.sku} × ${l.quantity}`) } });
        return json;
      });
    },

    /** Sends it: each line's quantity (the asked-for one unless given) leaves the sender, all or none. */
    async send(actor: StaffActor, id: number, lines?: { sku: string; quantity: number }[]) {
      authorize(actor, "stock.count");
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const transfer = await lockIn(tx, id, "requested", "sent");
        const sending = givenQuantities(transfer, "lines", lines, () => TRANSFER_QUANTITY_MAX, (l) => l.quantity);
        if ([...sending.values()].every((q) => q === 0)) throw new ValidationError({ lines: ["Send at least one item, or cancel the transfer."] });
        // An order's transfer goes whole: its stock left the sender's count when the order was placed.
        if (transfer.order) {
          if (transfer.lines.some((l) => sending.get(l.variant_id) !== l.quantity)) throw new ValidationError({ lines: [`${transfer.number} is for order ${transfer.order.number}: it is sent whole.`] });
          return sendOrReceive(tx, actor, transfer, "sent", sending);
        }
        const held = await lockVariants(tx, [...sending.keys()]);
        const reason = `${transfer.number} to ${transfer.to.name}`;
        const moved = await applyMovements(
          tx,
          [...sending].filter(([, q]) => q > 0).map(([variantId, quantity]) => ({ variantId, branchId: transfer.from.id, change: -quantity, kind: "transfer_out" as const, reason, staffId: actor.staffId })),
          { variantsLocked: true },
        );
        if (moved.refused.length) {
          const errors: Errors = {};
          transfer.lines.forEach((l, i) => {
            if (!moved.refused.includes(l.variant_id)) return;
            const have = held.find((h) => h.variantId === l.variant_id && h.branchId === transfer.from.id)?.stock ?? 0;
            add(errors, `lines.${i}.quantity`, `Row ${i + 1}: ${transfer.from.name} has ${have} of ${l.sku}; it cannot send ${sending.get(l.variant_id)}.`);
          });
          throw new ValidationError(errors);
        }
        return sendOrReceive(tx, actor, transfer, "sent", sending);
      });
    },

    /** Receives it: what arrived of each line (all that was sent unless given) joins the receiver's stock; the rest is the shortfall. */
    async receive(actor: StaffActor, id: number, lines?: { sku: string; quantity: number }[]) {
      authorize(actor, "stock.count");
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const transfer = await lockIn(tx, id, "in_transit", "received");
        const arrived = givenQuantities(transfer, "lines", lines, (l) => l.sent ?? 0, (l) => l.sent ?? 0);
        // An order's goods are the order's: they arrive for it, not into the branch's stock.
        if (!transfer.order) {
          const reason = `${transfer.number} from ${transfer.from.name}`;
          await applyMovements(
            tx,
            [...arrived].filter(([, q]) => q > 0).map(([variantId, quantity]) => ({ variantId, branchId: transfer.to.id, change: quantity, kind: "transfer_in" as const, reason, staffId: actor.staffId })),
          );
        }
        return sendOrReceive(tx, actor, transfer, "received", arrived);
      });
    },

    /** Cancels a transfer not yet sent. */
    async cancel(actor: StaffActor, id: number) {
      authorize(actor, "stock.count");
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const transfer = await lockIn(tx, id, "requested", "cancelled");
        if (transfer.order) throw new HttpError(409, `${transfer.number} is for order ${transfer.order.number}: cancel the order to cancel it.`);
        await tx.update(stockTransfers).set({ state: "cancelled", updatedAt: new Date() }).where(eq(stockTransfers.id, id));
        await recordAudit(tx, actor, { action: "stock.transfer_cancelled", entity: "transfer", entityId: transfer.number, before: { state: "requested" }, after: { state: "cancelled" } });
        return { ...transfer, state: "cancelled" as const };
      });
    },

    async get(actor: StaffActor, id: number) {
      authorize(actor, "catalogue.view");
      return load(db, id);
    },

    /** Transfers newest first, a keyset page at a time; of one state, and to or from one branch. */
    async list(actor: StaffActor, options: { state?: TransferState; branchId?: number; cursor?: number; limit?: number }) {
      authorize(actor, "catalogue.view");
      const limit = Math.min(Math.max(1, options.limit ?? 50), TRANSFERS_PAGE_MAX);
      const rows = await db
        .select({ id: stockTransfers.id })
        .from(stockTransfers)
        .where(
          and(
            options.state ? eq(stockTransfers.state, options.state) : undefined,
            options.branchId !== undefined ? or(eq(stockTransfers.fromBranchId, options.branchId), eq(stockTransfers.toBranchId, options.branchId)) : undefined,
            options.cursor !== undefined ? lt(stockTransfers.id, options.cursor) : undefined,
          ),
        )
        .orderBy(desc(stockTransfers.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      return { data: await loadMany(db, page.map((r) => r.id)), next_cursor: rows.length > limit ? page[page.length - 1]!.id : null };
    },

  };
}

export type TransferService = ReturnType<typeof createTransferService>;
