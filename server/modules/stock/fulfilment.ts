// Where an order's stock comes from (issue 30): the fulfilment rule, as plain
// arithmetic over what each branch holds, so it is tested without a database.

/** What the order needs of one variant. */
export interface Need {
  variantId: number;
  quantity: number;
}

/** A branch that can send stock, and how far it is from the delivery address (null when the address could not be placed). */
export interface Source {
  id: number;
  isDefault: boolean;
  miles: number | null;
}

/** Stock of a variant at a branch. */
export interface Held {
  variantId: number;
  branchId: number;
  stock: number;
}

/**
 * What the merchant does with an order no single branch can send whole:
 * `split` sends each line from the nearest branches that hold it (one order,
 * several parcels); `whole` refuses it, naming the lines.
 */
export type SplitPolicy = "split" | "whole";

export interface Take {
  variantId: number;
  branchId: number;
  quantity: number;
}

export type Fulfilment =
  /** `branchId`: the one branch sending everything; null when the order is split. */
  | { ok: true; branchId: number | null; takes: Take[] }
  /** The lines that cannot be sent, with how many the chosen branches hold in all. */
  | { ok: false; short: { variantId: number; available: number }[] };

/** Nearest first; a branch that cannot be placed after those that can; the central warehouse (the default branch) first among equals. */
export function sourceOrder(sources: Source[]): Source[] {
  return [...sources].sort((a, b) => (a.miles ?? Infinity) - (b.miles ?? Infinity) || Number(b.isDefault) - Number(a.isDefault));
}

/**
 * The fulfilment rule for a delivery order: the nearest branch that holds
 * every line sends it all (when the address cannot be placed, the central
 * warehouse first); else, by the merchant's `policy`, each line comes from the
 * nearest branches that hold it, or the order is refused. A line that all the
 * branches together cannot cover is short either way.
 */
export function planFulfilment(needs: Need[], sources: Source[], held: Held[], policy: SplitPolicy = "split"): Fulfilment {
  const ordered = sourceOrder(sources);
  const stockAt = (variantId: number, branchId: number) => held.find((h) => h.variantId === variantId && h.branchId === branchId)?.stock ?? 0;
  const whole = ordered.find((s) => needs.every((n) => stockAt(n.variantId, s.id) >= n.quantity));
  if (whole) return { ok: true, branchId: whole.id, takes: needs.map((n) => ({ variantId: n.variantId, branchId: whole.id, quantity: n.quantity })) };

  // Sent whole or not at all: the lines its first choice (the nearest branch, or the central warehouse) lacks.
  if (policy === "whole") {
    const first = ordered[0];
    const lacking = needs.filter((n) => !first || stockAt(n.variantId, first.id) < n.quantity);
    return { ok: false, short: lacking.map((n) => ({ variantId: n.variantId, available: first ? stockAt(n.variantId, first.id) : 0 })) };
  }
  const available = (n: Need) => ordered.reduce((sum, s) => sum + stockAt(n.variantId, s.id), 0);
  const short = needs.filter((n) => available(n) < n.quantity).map((n) => ({ variantId: n.variantId, available: available(n) }));
  if (short.length) return { ok: false, short };

  const takes: Take[] = [];
  for (const n of needs) {
    let left = n.quantity;
    for (const s of ordered) {
      const quantity = Math.min(left, stockAt(n.variantId, s.id));
      if (quantity > 0) takes.push({ variantId: n.variantId, branchId: s.id, quantity });
      left -= quantity;
      if (left === 0) break;
    }
  }
  const used = new Set(takes.map((t) => t.branchId));
  return { ok: true, branchId: used.size === 1 ? [...used][0]! : null, takes };
}

/**
 * A collection order at `branchId`: what the branch holds of each line comes
 * from its own shelves; the rest from the other branches, nearest to it
 * first, by transfer (a take at another branch is a transfer line, and the
 * order is ready later: branches/hours.ts `collectReadyAt`). A line that the
 * branch and the others together cannot cover is short, with what they hold.
 * `others` empty: only the branch's own stock.
 */
export function planCollection(needs: Need[], branchId: number, held: Held[], others: Source[] = []): Fulfilment {
  const stockAt = (variantId: number, at: number) => held.find((h) => h.variantId === variantId && h.branchId === at)?.stock ?? 0;
  const ordered = [branchId, ...sourceOrder(others.filter((s) => s.id !== branchId)).map((s) => s.id)];
  const available = (n: Need) => ordered.reduce((sum, at) => sum + stockAt(n.variantId, at), 0);
  const short = needs.filter((n) => available(n) < n.quantity).map((n) => ({ variantId: n.variantId, available: available(n) }));
  if (short.length) return { ok: false, short };
  const takes: Take[] = [];
  for (const n of needs) {
    let left = n.quantity;
    for (const at of ordered) {
      const quantity = Math.min(left, stockAt(n.variantId, at));
      if (quantity > 0) takes.push({ variantId: n.variantId, branchId: at, quantity });
      left -= quantity;
      if (left === 0) break;
    }
  }
  return { ok: true, branchId, takes };
}

/** The takes a collection at `branchId` needs moved to it first, by sending branch. */
export function transfersFor(plan: Fulfilment, branchId: number): Map<number, Take[]> {
  return plan.ok ? Map.groupBy(plan.takes.filter((t) => t.branchId !== branchId), (t) => t.branchId) : new Map();
}
