import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { branches } from "../branches/schema.ts";
import { orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import { type ReturnsMail, emailReturn, returnInstructions } from "./emails.ts";
import { returnability, returnsOfOrder } from "./read.ts";
import type { ProcessedPhoto } from "../media/photos.ts";
import { insertReturnPhotos } from "./photos/rows.ts";
import { returnEvents, returnLines, returns } from "./schema.ts";
import { RETURN_REASONS, RETURN_METHODS, type ReturnMethod, type ReturnReason } from "./statuses.ts";

/** Who asks about an order: its signed-in customer, or whoever holds its signed link (a guest). */
export interface Requester {
  userId: number | null;
  /** The order's signed link was verified for this order number (orders/links.ts). */
  signedFor?: string | null;
  /** A link's signature was given, valid or not: a wrong one is refused as someone else's order (403), not as no one (401). */
  triedLink?: boolean;
}

export interface ReturnRequest {
  lines: { line_id: number; quantity: number; reason: ReturnReason; note?: string }[];
  method: ReturnMethod;
  /** Method `branch`: the branch the goods come back to (the order's own when not given). */
  branch_id?: number;
}

export const NOTE_MAX = 500;

export interface ReturnsOptions extends ReturnsMail {
  /** The shop's returns period in days (at least the 14 of the right to cancel). */
  returnsDays: number;
  now?: () => Date;
}

type OrderRow = typeof orders.$inferSelect;

const byNumber = (number: string) => eq(orders.number, number.trim().toUpperCase());

/** 404 for no such order; 403 when it is someone else's (or the link is not this order's). */
export function checkOwner(order: Pick<OrderRow, "number" | "userId"> | undefined, who: Requester, number: string): asserts order is OrderRow {
  if (!order) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
  const mine = who.userId !== null && order.userId === who.userId;
  const linked = who.signedFor === order.number;
  if (mine || linked) return;
  if (who.userId === null && !who.triedLink) throw new HttpError(401, "Sign in, or open the order from the link in its email.");
  throw new HttpError(403, "This order is not yours.");
}

/** The branch a return comes back to, with its address for the instructions. */
export async function returnBranch(tx: Db, id: number | null) {
  if (id === null) return null;
  const [b] = await tx.select().from(branches).where(eq(branches.id, id));
  return b ? { id: b.id, name: b.name, slug: b.slug, address: [b.line1, b.line2, b.town, b.postcode].filter(Boolean).join(", "), active: b.status === "open" } : null;
}

/**
 * The customer's side of returns (issue 31): what an order can still send
 * back, asking for a return, and the order's returns. Asking locks the
 * order's row, so two requests for the last unit of a line make one return.
 */
export function createReturnsService(db: Db, options: ReturnsOptions) {
  const now = () => options.now?.() ?? new Date();

  async function lockOrder(tx: Db, number: string, who: Requester): Promise<OrderRow> {
    const [order] = await tx.select().from(orders).where(byNumber(number)).for("update");
    checkOwner(order, who, number);
    return order;
  }

  function cleanRequest(input: ReturnRequest): ReturnRequest {
    const errors: Record<string, string[]> = {};
    if (!RETURN_METHODS.includes(input.method)) errors.method = [`Choose how it comes back: ${RETURN_METHODS.join(", ")}.`];
    const lines = (input.lines ?? []).filter((l) => l.quantity > 0);
    if (!lines.length) errors.lines = ["Choose at least one item to return."];
    const seen = new Set<number>();
    lines.forEach((l, i) => {
      if (seen.has(l.line_id)) errors[`lines.${i}`] = ["Choose each item once."];
      seen.add(l.line_id);
      if (!Number.isInteger(l.quantity)) errors[`lines.${i}.quantity`] = ["Enter a whole number."];
      if (!RETURN_REASONS.includes(l.reason)) errors[`lines.${i}.reason`] = ["Choose a reason."];
      if (l.reason === "other" && !l.note?.trim()) errors[`lines.${i}.note`] = ["Tell us why you are returning it."];
      if ((l.note ?? "").length > NOTE_MAX) errors[`lines.${i}.note`] = [`Keep it to ${NOTE_MAX} characters.`];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { ...input, lines: lines.map((l) => ({ ...l, note: l.note?.trim() ?? "" })) };
  }

  return {
    /** What of the order can still be returned, and its returns so far. */
    async forOrder(orderId: number) {
      const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
      if (!order) return null;
      const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id));
      const [can, list] = await Promise.all([returnability(db, order, lines, options.returnsDays, now()), returnsOfOrder(db, order.id)]);
      return { returnable: can, returns: list, order_link_needed: order.userId === null };
    },

    /** An order's returns, for its customer or the holder of its link. */
    async list(number: string, who: Requester) {
      const [order] = await db.select().from(orders).where(byNumber(number));
      checkOwner(order, who, number);
      return returnsOfOrder(db, order.id);
    },

    /**
     * Asks for a return: each line inside what may still come back (422
     * naming the line otherwise), the order delivered or collected and in
     * its window, the product not excluded. Changing one's mind inside the
     * window is approved at once (the rule every shop follows: the law gives
     * the right); anything else waits for the desk.
     */
    async request(number: string, who: Requester, input: ReturnRequest, attached: { photos: ProcessedPhoto[]; captions?: string[] } = { photos: [] }) {
      const clean = cleanRequest(input);
      const created = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const order = await lockOrder(tx, number, who);
        const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id));
        const can = await returnability(tx, order, lines, options.returnsDays, now());
        if (can.closed_reason) throw new ValidationError({ order: [can.closed_reason] });
        const errors: Record<string, string[]> = {};
        clean.lines.forEach((l, i) => {
          const line = can.lines.find((c) => c.line_id === l.line_id);
          if (!line) errors[`lines.${i}`] = [`Line ${l.line_id} is not on order ${order.number}.`];
          else if (line.not_returnable_reason) errors[`lines.${i}`] = [`${line.name}: ${line.not_returnable_reason}`];
          else if (l.quantity > line.returnable) errors[`lines.${i}.quantity`] = [line.returnable === 0 ? `${line.name}: already returned in full.` : `${line.name}: only ${line.returnable} can still be returned.`];
        });
        if (clean.method === "collection" && !clean.lines.some((l) => can.lines.find((c) => c.line_id === l.line_id)?.heavy)) {
          errors.method = ["Collection is for heavy goods: bring these to a branch or send them by post."];
        }
        if (Object.keys(errors).length) throw new ValidationError(errors);
        const branchId = clean.method === "branch" ? (clean.branch_id ?? order.branchId ?? null) : null;
        const branch = await returnBranch(tx, branchId);
        if (clean.method === "branch" && clean.branch_id !== undefined && (!branch || !branch.active)) throw new ValidationError({ branch_id: ["Choose one of our open branches."] });
        const auto = clean.lines.every((l) => l.reason === "changed_mind");
        const [ret] = await tx
          .insert(returns)
          .values({ orderId: order.id, method: clean.method, branchId: branch?.id ?? null, collectionCharge: clean.method === "collection" ? options.collectionCharge : 0, status: auto ? "approved" : "requested", requestedBy: "customer" })
          .returning();
        await tx.insert(returnLines).values(clean.lines.map((l) => ({ returnId: ret!.id, orderLineId: l.line_id, quantity: l.quantity, reason: l.reason, note: l.note ?? "" })));
        // Photos the form sent with it, already through the pipeline and stored (photos/service.ts, prepare): their rows in this transaction.
        await insertReturnPhotos(tx, ret!.id, attached.photos, attached.captions);
        await tx.insert(returnEvents).values([
          { returnId: ret!.id, status: "requested", note: `Asked for online${attached.photos.length ? ` with ${attached.photos.length === 1 ? "a photo" : `${attached.photos.length} photos`}` : ""}.` },
          ...(auto ? [{ returnId: ret!.id, status: "approved", note: "Approved at once: a change of mind inside the returns period." }] : []),
        ]);
        await tx.insert(orderStatusHistory).values({ orderId: order.id, status: order.status, kind: "note", note: `Return ${ret!.number} asked for.` });
        const forMail = {
          number: ret!.number,
          orderNumber: order.number,
          email: order.email,
          method: clean.method,
          branch,
          lines: clean.lines.map((l) => ({ name: lines.find((x) => x.id === l.line_id)!.name, quantity: l.quantity, reason: l.reason })),
        };
        await emailReturn(tx, options, forMail, { kind: auto ? "approved" : "requested" });
        return { ret: ret!, forMail, orderId: order.id };
      });
      options.mail.kick?.();
      const [made] = (await returnsOfOrder(db, created.orderId)).filter((r) => r.number === created.ret.number);
      return { ...made!, instructions: made!.status === "approved" ? returnInstructions(created.forMail, options) : [] };
    },
  };
}

export type ReturnsService = ReturnType<typeof createReturnsService>;

