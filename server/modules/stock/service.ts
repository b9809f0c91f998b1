import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { lineName } from "../catalog/variant-names.ts";
import { orders } from "../orders/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { staff } from "../staff/schema.ts";
import { applyMovements, countTo } from "./ledger.ts";
import { KIND_LABELS, MANUAL_KINDS, type ManualKind, MOVEMENT_KINDS, type MovementKind } from "./kinds.ts";
import { stockMovements } from "./schema.ts";

export { KIND_LABELS, MANUAL_KINDS };

/**
 * The stock desk (issue 20): receiving deliveries, stock counts, adjustments
 * with a reason, and each product's movement history. Every call is all or
 * nothing: one bad row refuses the lot, named by its row.
 */
export const STOCK_LINES_MAX = 500;
export const CHANGE_MAX = 100_000;
export const REASON_MAX = 200;
export const HISTORY_PAGE_MAX = 100;

export interface MovementInput {
  sku: string;
  change: number;
  reason?: string;
  kind?: ManualKind;
}

export interface CountInput {
  sku: string;
  counted: number;
}

type Errors = Record<string, string[]>;

function rowError(errors: Errors, field: string, message: string): void {
  errors[field] = [...(errors[field] ?? []), message];
}

const encodeCursor = (id: number) => Buffer.from(`m${id}`).toString("base64url");
function decodeCursor(cursor: string): number {
  const match = /^m(\d{1,18})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError({ cursor: ["This page link is out of date; start again from the first page."] });
  return id;
}

export function createStockService(db: Db) {
  /** Variant SKUs to variants (any case), locked in (product, id) order for the rest of the transaction, as the ledger moves them. */
  async function lockSkus(tx: Db, skus: string[]) {
    const wanted = [...new Set(skus.map((s) => s.trim().toLowerCase()))];
    const rows = wanted.length
      ? await tx
          .select({ id: productVariants.id, sku: productVariants.sku, productName: products.name, options: productVariants.options, stock: productVariants.stock })
          .from(productVariants)
          .innerJoin(products, eq(products.id, productVariants.productId))
          .where(inArray(sql`lower(${productVariants.sku})`, wanted))
          .orderBy(productVariants.productId, productVariants.id)
          .for("update", { of: productVariants })
      : [];
    return new Map(rows.map((r) => [r.sku.toLowerCase(), { id: r.id, sku: r.sku, name: lineName(r.productName, r.options), stock: r.stock }]));
  }

  async function record(actor: StaffActor, field: string, lines: { sku: string; change: number; kind: MovementKind; reason: string }[], audit: { action: string; note: string }) {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const bySku = await lockSkus(tx, lines.map((l) => l.sku));
      const errors: Errors = {};
      lines.forEach((l, i) => {
        if (!bySku.has(l.sku.trim().toLowerCase())) rowError(errors, `${field}.${i}.sku`, `Row ${i + 1}: no product has the SKU ${l.sku}.`);
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const movements = lines.map((l) => ({ variantId: bySku.get(l.sku.trim().toLowerCase())!.id, change: l.change, kind: l.kind, reason: l.reason, staffId: actor.staffId }));
      const { stock, refused } = await applyMovements(tx, movements.filter((m) => m.change !== 0));
      if (refused.length) {
        lines.forEach((l, i) => {
          const p = bySku.get(l.sku.trim().toLowerCase())!;
          if (refused.includes(p.id)) rowError(errors, `${field}.${i}.change`, `Row ${i + 1}: ${p.sku} has ${p.stock} in stock; taking ${-l.change} would leave less than none.`);
        });
        throw new ValidationError(errors);
      }
      const results = [...bySku.values()].map((p) => ({ sku: p.sku, name: p.name, before: p.stock, after: stock.get(p.id) ?? p.stock }));
      for (const r of results.filter((x) => x.before !== x.after)) {
        await recordAudit(tx, actor, { action: audit.action, entity: "product", entityId: r.sku, before: { stock: r.before }, after: { stock: r.after, note: audit.note } });
      }
      return { products: results };
    });
  }

  function checkLines<T>(field: string, lines: T[]): void {
    if (lines.length === 0) throw new ValidationError({ [field]: ["Add at least one line."] });
    if (lines.length > STOCK_LINES_MAX) throw new ValidationError({ [field]: [`At most ${STOCK_LINES_MAX} lines at once.`] });
  }

  return {
    /**
     * Movements by hand (`POST /api/admin/stock/movements`): a received
     * delivery, a customer's return, an adjustment. An adjustment needs its reason.
     */
    async move(actor: StaffActor, lines: MovementInput[]) {
      authorize(actor, "stock.count");
      checkLines("movements", lines);
      const errors: Errors = {};
      lines.forEach((l, i) => {
        const kind = l.kind ?? "adjusted";
        if (!Number.isInteger(l.change) || l.change === 0 || Math.abs(l.change) > CHANGE_MAX) rowError(errors, `movements.${i}.change`, `Row ${i + 1}: give the change as a whole number, not 0, at most ${CHANGE_MAX.toLocaleString("en-GB")} either way.`);
        if (kind === "adjusted" && !(l.reason ?? "").trim()) rowError(errors, `movements.${i}.reason`, `Row ${i + 1}: say why the stock is adjusted.`);
        if ((kind === "received" || kind === "returned") && l.change < 0) rowError(errors, `movements.${i}.change`, `Row ${i + 1}: goods ${kind} add to the stock.`);
        if ((l.reason ?? "").length > REASON_MAX) rowError(errors, `movements.${i}.reason`, `Row ${i + 1}: the reason can be at most ${REASON_MAX} characters.`);
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      return record(
        actor,
        "movements",
        lines.map((l) => ({ sku: l.sku, change: l.change, kind: l.kind ?? "adjusted", reason: (l.reason ?? "").trim() })),
        { action: "stock.moved", note: [...new Set(lines.map((l) => (l.reason ?? l.kind ?? "adjusted").trim()))].join("; ").slice(0, REASON_MAX) },
      );
    },

    /** A delivery in: several SKUs at once, each a `received` movement with the delivery's reference. */
    async receive(actor: StaffActor, input: { reference: string; lines: { sku: string; quantity: number }[] }) {
      authorize(actor, "stock.count");
      checkLines("lines", input.lines);
      const reference = input.reference.trim();
      const errors: Errors = {};
      if (reference.length > REASON_MAX) rowError(errors, "reference", `The reference can be at most ${REASON_MAX} characters.`);
      input.lines.forEach((l, i) => {
        if (!Number.isInteger(l.quantity) || l.quantity < 1 || l.quantity > CHANGE_MAX) rowError(errors, `lines.${i}.quantity`, `Row ${i + 1}: give the quantity received as a whole number from 1 to ${CHANGE_MAX.toLocaleString("en-GB")}.`);
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const reason = reference ? `Delivery ${reference}` : "Delivery received";
      return record(actor, "lines", input.lines.map((l) => ({ sku: l.sku, change: l.quantity, kind: "received" as const, reason })), { action: "stock.received", note: reason });
    },

    /** A stock count: what is on the shelf; the difference from the books is recorded as `counted`. */
    async count(actor: StaffActor, lines: CountInput[], note = "") {
      authorize(actor, "stock.count");
      checkLines("counts", lines);
      const errors: Errors = {};
      lines.forEach((l, i) => {
        if (!Number.isInteger(l.counted) || l.counted < 0 || l.counted > 1_000_000) rowError(errors, `counts.${i}.counted`, `Row ${i + 1}: give the count as a whole number, 0 or more.`);
      });
      const seen = new Set<string>();
      lines.forEach((l, i) => {
        const key = l.sku.trim().toLowerCase();
        if (seen.has(key)) rowError(errors, `counts.${i}.sku`, `Row ${i + 1}: ${l.sku} is counted twice; give one total.`);
        seen.add(key);
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const reason = note.trim().slice(0, REASON_MAX) || "Stock count";
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const bySku = await lockSkus(tx, lines.map((l) => l.sku));
        lines.forEach((l, i) => {
          if (!bySku.has(l.sku.trim().toLowerCase())) rowError(errors, `counts.${i}.sku`, `Row ${i + 1}: no product has the SKU ${l.sku}.`);
        });
        if (Object.keys(errors).length) throw new ValidationError(errors);
        const diffs = await countTo(tx, lines.map((l) => ({ variantId: bySku.get(l.sku.trim().toLowerCase())!.id, counted: l.counted })), reason, actor.staffId);
        const byId = new Map([...bySku.values()].map((p) => [p.id, p]));
        for (const d of diffs.filter((x) => x.after !== x.before)) {
          await recordAudit(tx, actor, { action: "stock.counted", entity: "product", entityId: byId.get(d.variantId)!.sku, before: { stock: d.before }, after: { stock: d.after, note: reason } });
        }
        return { products: diffs.map((d) => ({ sku: byId.get(d.variantId)!.sku, name: byId.get(d.variantId)!.name, before: d.before, after: d.after, difference: d.after - d.before })) };
      });
    },

    /** Movements newest first, of one product or of all, a keyset page at a time. */
    async history(actor: StaffActor, options: { sku?: string; kind?: MovementKind; cursor?: string; limit?: number }) {
      authorize(actor, "catalogue.view");
      const limit = Math.min(Math.max(1, options.limit ?? 50), HISTORY_PAGE_MAX);
      const where = [];
      if (options.sku) {
        // A SKU is a variant's: its own movements.
        const [v] = await db.select({ id: productVariants.id }).from(productVariants).where(eq(sql`lower(${productVariants.sku})`, options.sku.trim().toLowerCase())).limit(1);
        if (!v) throw new HttpError(404, "No product has that SKU.");
        where.push(eq(stockMovements.variantId, v.id));
      }
      if (options.kind) where.push(eq(stockMovements.kind, options.kind));
      if (options.cursor) where.push(lt(stockMovements.id, decodeCursor(options.cursor)));
      const rows = await db
        .select({
          id: stockMovements.id,
          sku: productVariants.sku,
          name: products.name,
          options: productVariants.options,
          change: stockMovements.change,
          kind: stockMovements.kind,
          reason: stockMovements.reason,
          stockAfter: stockMovements.stockAfter,
          orderNumber: orders.number,
          staffName: staff.name,
          createdAt: stockMovements.createdAt,
        })
        .from(stockMovements)
        .innerJoin(productVariants, eq(productVariants.id, stockMovements.variantId))
        .innerJoin(products, eq(products.id, stockMovements.productId))
        .leftJoin(staff, eq(staff.id, stockMovements.staffId))
        .leftJoin(orders, eq(orders.id, stockMovements.orderId))
        .where(and(...where))
        .orderBy(desc(stockMovements.id))
        .limit(limit + 1);
      const data = rows.slice(0, limit);
      return {
        data: data.map((r) => ({
          id: r.id,
          sku: r.sku,
          name: lineName(r.name, r.options),
          change: r.change,
          kind: r.kind,
          kind_label: KIND_LABELS[r.kind],
          reason: r.reason,
          stock_after: r.stockAfter,
          order_number: r.orderNumber,
          staff: r.staffName,
          at: r.createdAt.toISOString(),
        })),
        next_cursor: rows.length > limit ? encodeCursor(data[data.length - 1]!.id) : null,
      };
    },

    kinds: MOVEMENT_KINDS,
  };
}

export type StockService = ReturnType<typeof createStockService>;
