import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { lineName } from "../catalog/variants/variant-names.ts";
import { orders } from "../orders/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { staff } from "../staff/schema.ts";
import { branches } from "../branches/schema.ts";
import { applyMovements, atBranch, branchStockOf, countTo } from "./ledger.ts";
import { inTransitOf } from "./transfers.ts";
import { KIND_LABELS, MANUAL_KINDS, type ManualKind, MOVEMENT_KINDS, type MovementKind } from "./kinds.ts";
import { branchStock, stockMovements } from "./schema.ts";
import { idCursor } from "../../lib/id-cursor.ts";

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
export const LOOKUP_MAX = 8;

/** A LIKE pattern's own characters taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface MovementInput {
  sku: string;
  change: number;
  reason?: string;
  kind?: ManualKind;
  /** Where: the default branch when not given. */
  branch_id?: number;
}

export interface CountInput {
  sku: string;
  counted: number;
}

/** A branch stock can move at, as the desk's answers name it. */
interface BranchRef {
  id: number;
  slug: string;
  name: string;
}

type Errors = Record<string, string[]>;

function rowError(errors: Errors, field: string, message: string): void {
  errors[field] = [...(errors[field] ?? []), message];
}

const { encode: encodeCursor, decode: decodeCursor } = idCursor("m", Number.MAX_SAFE_INTEGER);

export function createStockService(db: Db) {
  /** Variant SKUs to variants (any case), locked in (product, id) order for the rest of the transaction, as the ledger moves them. */
  async function lockSkus(tx: Db, skus: string[]) {
    const wanted = [...new Set(skus.map((s) => s.trim().toLowerCase()))];
    const rows = wanted.length
      ? await tx
          .select({ id: productVariants.id, sku: productVariants.sku, productName: products.name, options: productVariants.options })
          .from(productVariants)
          .innerJoin(products, eq(products.id, productVariants.productId))
          .where(inArray(sql`lower(${productVariants.sku})`, wanted))
          .orderBy(productVariants.productId, productVariants.id)
          .for("update", { of: productVariants })
      : [];
    return new Map(rows.map((r) => [r.sku.toLowerCase(), { id: r.id, sku: r.sku, name: lineName(r.productName, r.options) }]));
  }

  /** A variant by its SKU, any case; 404 when no product has it. */
  async function variantOf(sku: string) {
    const [variant] = await db
      .select({ id: productVariants.id, productId: productVariants.productId, sku: productVariants.sku, stock: productVariants.stock })
      .from(productVariants)
      .where(eq(sql`lower(${productVariants.sku})`, sku.trim().toLowerCase()))
      .limit(1);
    if (!variant) throw new HttpError(404, "No product has that SKU.");
    return variant;
  }

  /** The shop's branches, to check what a request names. */
  const branchList = (tx: Db) =>
    tx.select({ id: branches.id, slug: branches.slug, name: branches.name, status: branches.status, isDefault: branches.isDefault }).from(branches).orderBy(asc(branches.position), asc(branches.id));
  type BranchRow = Awaited<ReturnType<typeof branchList>>[number];

  /** The branch stock moves at (the default one when none is named), or why it cannot. */
  function branchOf(rows: BranchRow[], id: number | undefined): BranchRef | string {
    const found = id === undefined ? rows.find((b) => b.isDefault) : rows.find((b) => b.id === id);
    if (!found) return `There is no branch ${id}.`;
    if (found.status !== "open") return `${found.name} is closed; stock cannot move there.`;
    return { id: found.id, slug: found.slug, name: found.name };
  }

  async function record(
    actor: StaffActor,
    field: string,
    lines: { sku: string; change: number; kind: MovementKind; reason: string; branch_id?: number }[],
    audit: { action: string; note: string },
  ) {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const bySku = await lockSkus(tx, lines.map((l) => l.sku));
      const errors: Errors = {};
      lines.forEach((l, i) => {
        if (!bySku.has(l.sku.trim().toLowerCase())) rowError(errors, `${field}.${i}.sku`, `Row ${i + 1}: no product has the SKU ${l.sku}.`);
      });
      const rows = await branchList(tx);
      const at = lines.map((l, i) => {
        const branch = branchOf(rows, l.branch_id);
        if (typeof branch === "string") rowError(errors, `${field}.${i}.branch_id`, `Row ${i + 1}: ${branch}`);
        return branch as BranchRef;
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      // The variants are locked (lockSkus): their branches' stock stays as read until commit.
      const held = new Map((await branchStockOf(tx, [...bySku.values()].map((p) => p.id))).map((h) => [atBranch(h.variantId, h.branchId), h.stock]));
      const heldAt = (variantId: number, branchId: number) => held.get(atBranch(variantId, branchId)) ?? 0;
      const movements = lines.map((l, i) => ({ variantId: bySku.get(l.sku.trim().toLowerCase())!.id, branchId: at[i]!.id, change: l.change, kind: l.kind, reason: l.reason, staffId: actor.staffId }));
      const { branchStock, refusedAt } = await applyMovements(tx, movements.filter((m) => m.change !== 0), { variantsLocked: true });
      if (refusedAt.length) {
        movements.forEach((m, i) => {
          if (!refusedAt.some((r) => r.variantId === m.variantId && r.branchId === m.branchId)) return;
          const have = heldAt(m.variantId, m.branchId);
          rowError(errors, `${field}.${i}.change`, `Row ${i + 1}: ${lines[i]!.sku.trim()} has ${have} at ${at[i]!.name}; taking ${-m.change} would leave less than none.`);
        });
        throw new ValidationError(errors);
      }
      // One result per SKU and branch, in the order the lines first named them.
      const seen = new Map<string, { sku: string; name: string; branch: BranchRef; before: number; after: number }>();
      movements.forEach((m, i) => {
        const key = atBranch(m.variantId, m.branchId);
        if (seen.has(key)) return;
        const p = bySku.get(lines[i]!.sku.trim().toLowerCase())!;
        const before = heldAt(m.variantId, m.branchId);
        seen.set(key, { sku: p.sku, name: p.name, branch: at[i]!, before, after: branchStock.get(key) ?? before });
      });
      const results = [...seen.values()];
      for (const r of results.filter((x) => x.before !== x.after)) {
        await recordAudit(tx, actor, { action: audit.action, entity: "product", entityId: r.sku, before: { stock: r.before, branch: r.branch.slug }, after: { stock: r.after, branch: r.branch.slug, note: audit.note } });
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
        lines.map((l) => ({ sku: l.sku, change: l.change, kind: l.kind ?? "adjusted", reason: (l.reason ?? "").trim(), branch_id: l.branch_id })),
        { action: "stock.moved", note: [...new Set(lines.map((l) => (l.reason ?? l.kind ?? "adjusted").trim()))].join("; ").slice(0, REASON_MAX) },
      );
    },

    /** A delivery in: several SKUs at once, each a `received` movement with the delivery's reference. */
    async receive(actor: StaffActor, input: { reference: string; branch_id?: number; lines: { sku: string; quantity: number }[] }) {
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
      return record(actor, "lines", input.lines.map((l) => ({ sku: l.sku, change: l.quantity, kind: "received" as const, reason, branch_id: input.branch_id })), { action: "stock.received", note: reason });
    },

    /** A stock count: what is on the shelf; the difference from the books is recorded as `counted`. */
    async count(actor: StaffActor, lines: CountInput[], note = "", branchId?: number) {
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
        // A count is of one branch's shelves.
        const branch = branchOf(await branchList(tx), branchId);
        if (typeof branch === "string") throw new ValidationError({ branch_id: [branch] });
        if (Object.keys(errors).length) throw new ValidationError(errors);
        const diffs = await countTo(tx, lines.map((l) => ({ variantId: bySku.get(l.sku.trim().toLowerCase())!.id, branchId: branch.id, counted: l.counted })), reason, actor.staffId, { variantsLocked: true });
        const byId = new Map([...bySku.values()].map((p) => [p.id, p]));
        for (const d of diffs.filter((x) => x.after !== x.before)) {
          await recordAudit(tx, actor, { action: "stock.counted", entity: "product", entityId: byId.get(d.variantId)!.sku, before: { stock: d.before, branch: branch.slug }, after: { stock: d.after, branch: branch.slug, note: reason } });
        }
        return { products: diffs.map((d) => ({ sku: byId.get(d.variantId)!.sku, name: byId.get(d.variantId)!.name, branch, before: d.before, after: d.after, difference: d.after - d.before })) };
      });
    },

    /** Movements newest first, of one product or of all, a keyset page at a time. */
    async history(actor: StaffActor, options: { sku?: string; product?: string; kind?: MovementKind; branchId?: number; cursor?: string; limit?: number }) {
      authorize(actor, "catalogue.view");
      const limit = Math.min(Math.max(1, options.limit ?? 50), HISTORY_PAGE_MAX);
      const where = [];
      if (options.sku) {
        // A SKU is a variant's: its own movements.
        where.push(eq(stockMovements.variantId, (await variantOf(options.sku)).id));
      }
      if (options.product) {
        // A product by any of its variants' SKUs: every variant's movements.
        where.push(eq(stockMovements.productId, (await variantOf(options.product)).productId));
      }
      if (options.kind) where.push(eq(stockMovements.kind, options.kind));
      if (options.branchId !== undefined) where.push(eq(stockMovements.branchId, options.branchId));
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
          branch: { id: branches.id, slug: branches.slug, name: branches.name },
          orderNumber: orders.number,
          staffName: staff.name,
          createdAt: stockMovements.createdAt,
        })
        .from(stockMovements)
        .innerJoin(productVariants, eq(productVariants.id, stockMovements.variantId))
        .innerJoin(products, eq(products.id, stockMovements.productId))
        .innerJoin(branches, eq(branches.id, stockMovements.branchId))
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
          branch: r.branch,
          order_number: r.orderNumber,
          staff: r.staffName,
          at: r.createdAt.toISOString(),
        })),
        next_cursor: rows.length > limit ? encodeCursor(data[data.length - 1]!.id) : null,
      };
    },

    /**
     * A variant's stock at each branch (`GET /api/admin/stock/levels`): every
     * open branch, and a closed one only while it still holds some.
     */
    async levels(actor: StaffActor, sku: string) {
      authorize(actor, "catalogue.view");
      const variant = await variantOf(sku);
      const rows = await db
        .select({ id: branches.id, slug: branches.slug, name: branches.name, stock: sql<number>`coalesce(${branchStock.stock}, 0)::int` })
        .from(branches)
        .leftJoin(branchStock, and(eq(branchStock.branchId, branches.id), eq(branchStock.variantId, variant.id)))
        .where(sql`${branches.status} = 'open' or ${branchStock.stock} > 0`)
        .orderBy(desc(branches.isDefault), asc(branches.position), asc(branches.id));
      const moving = await inTransitOf(db, variant.id);
      return {
        sku: variant.sku,
        total: variant.stock,
        data: rows.map((r) => ({ branch: { id: r.id, slug: r.slug, name: r.name }, stock: r.stock, in_transit: moving.get(r.id) ?? { incoming: 0, outgoing: 0 } })),
      };
    },

    /**
     * Products on sale or in draft for a desk's row (`GET /api/admin/stock/lookup`):
     * an exact SKU or barcode first (a scan; both indexed), then names
     * containing the words (the name's trigram index) and SKUs starting with
     * them; each with its stock at the branch (the default one when none is named).
     */
    async lookup(actor: StaffActor, query: { q: string; branchId?: number; limit?: number }) {
      authorize(actor, "catalogue.view");
      const term = query.q.trim().slice(0, 64);
      const limit = Math.min(Math.max(1, query.limit ?? LOOKUP_MAX), LOOKUP_MAX);
      const rows = await branchList(db);
      const branch = branchOf(rows, query.branchId);
      if (typeof branch === "string") throw new ValidationError({ branch_id: [branch] });
      if (!term) return { branch, data: [] };
      const lower = term.toLowerCase();
      // coalesce: a variant without a barcode is not a match (not an unknown).
      const exact = sql`(lower(${productVariants.sku}) = ${lower} or coalesce(${productVariants.barcode} = ${term}, false))`;
      const loose = sql`(${products.name} ilike ${`%${likeLiteral(term)}%`} or lower(${productVariants.sku}) like ${`${likeLiteral(lower)}%`})`;
      const found = await db
        .select({
          sku: productVariants.sku,
          name: products.name,
          options: productVariants.options,
          barcode: productVariants.barcode,
          status: products.status,
          total: productVariants.stock,
          stock: sql<number>`coalesce(${branchStock.stock}, 0)::int`,
          exact: sql<boolean>`${exact}`,
        })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .leftJoin(branchStock, and(eq(branchStock.variantId, productVariants.id), eq(branchStock.branchId, branch.id)))
        .where(and(eq(productVariants.status, "active"), sql`${products.status} <> 'archived'`, term.length < 2 ? exact : sql`(${exact} or ${loose})`))
        .orderBy(desc(exact), asc(products.name), asc(productVariants.position), asc(productVariants.id))
        .limit(limit);
      return {
        branch,
        data: found.map((r) => ({ sku: r.sku, name: lineName(r.name, r.options), barcode: r.barcode, status: r.status, stock: r.stock, total: r.total, exact: r.exact })),
      };
    },

    /** The open branches stock can move at, the default one first: the desk's choice of where. */
    async branches(actor: StaffActor) {
      authorize(actor, "catalogue.view");
      const rows = await branchList(db);
      return rows
        .filter((b) => b.status === "open")
        .sort((a, b) => Number(b.isDefault) - Number(a.isDefault))
        .map((b) => ({ id: b.id, slug: b.slug, name: b.name, is_default: b.isDefault }));
    },

    kinds: MOVEMENT_KINDS,
  };
}

export type StockService = ReturnType<typeof createStockService>;
