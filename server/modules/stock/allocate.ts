import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { jsonObject } from "../../db/json-object.ts";
import { ValidationError } from "../../http-errors.ts";
import { milesBetween } from "../branches/distance.ts";
import { collectReadyAt, londonIso } from "../branches/hours.ts";
import { branches } from "../branches/schema.ts";
import { builtInProvider, normalisePostcode } from "../postcode/service.ts";
import { type Fulfilment, type Need, type SplitPolicy, planCollection, planFulfilment, transfersFor } from "./fulfilment.ts";
import { lockVariantRows } from "./ledger.ts";
import { branchStock } from "./schema.ts";

/** Where an order goes: collected at a branch (the default one when none is named), or delivered to a postcode. */
export type Destination = { collectAt: number | undefined } | { postcode: string | null };

/** What a branch's part in a plan reads of it. */
const branchFields = {
  id: branches.id,
  name: branches.name,
  isDefault: branches.isDefault,
  services: branches.services,
  lat: branches.lat,
  lng: branches.lng,
  openingHours: branches.openingHours,
  hoursExceptions: branches.hoursExceptions,
  collectLeadMinutes: branches.collectLeadMinutes,
  collectCutoffMinutes: branches.collectCutoffMinutes,
  transferDays: branches.transferDays,
};
type OpenBranch = { [K in keyof typeof branchFields]: (typeof branches.$inferSelect)[K] };

/**
 * The variants locked (ledger.ts lockVariants), then, once the locks are held, their stock at each branch and the open
 * branches (the collecting branch and the others a transfer could come from: a handful of rows) in one statement (issue 35).
 */
async function lockedStockAndBranches(tx: Db, variantIds: number[]): Promise<{ held: { variantId: number; branchId: number; stock: number }[]; open: OpenBranch[] }> {
  const ids = [...new Set(variantIds)];
  if (ids.length) await lockVariantRows(tx, ids);
  const held = ids.length
    ? sql`(select coalesce(json_agg(${jsonObject({ variantId: branchStock.variantId, branchId: branchStock.branchId, stock: branchStock.stock })}), '[]') from ${branchStock} where ${inArray(branchStock.variantId, ids)})`
    : sql`'[]'::json`;
  const [row] = await tx
    .select({
      held: sql<{ variantId: number; branchId: number; stock: number }[]>`${held}`,
      open: sql<OpenBranch[]>`(select coalesce(json_agg(${jsonObject(branchFields)}), '[]') from ${branches} where ${branches.status} = 'open')`,
    })
    .from(sql`(select 1) one`);
  return row!;
}

/**
 * An order's stock, worked out under its variants' locks (held until the
 * caller's transaction ends, so the plan is still true when the ledger takes
 * it): a collection from its branch (and what it lacks from the others, by
 * transfer, with the later ready time), a delivery by the fulfilment rule. The
 * delivery address is placed from the shop's own postcode table (never a
 * provider's API inside a transaction), and only when more than one branch
 * could send the order.
 */
export async function allocateOrderStock(tx: Db, needs: Need[], to: Destination, policy: SplitPolicy, at = new Date()): Promise<{ plan: Fulfilment; branch: { id: number; name: string; readyAt: Date | null } | null }> {
  const { held, open } = await lockedStockAndBranches(tx, needs.map((n) => n.variantId));
  if ("collectAt" in to) {
    const branch = open.find((b) => (to.collectAt === undefined ? b.isDefault : b.id === to.collectAt));
    if (!branch || !branch.services.includes("collect")) throw new ValidationError({ branch_id: ["Choose a branch that offers click & collect."] });
    // What the branch lacks comes by transfer from the branches nearest to it.
    const others = open.filter((b) => b.id !== branch.id);
    const here = branch.lat !== null && branch.lng !== null ? { lat: branch.lat, lng: branch.lng } : null;
    const sources = others.map((b) => ({ id: b.id, isDefault: b.isDefault, miles: here && b.lat !== null && b.lng !== null ? milesBetween(here, { lat: b.lat, lng: b.lng }) : null }));
    const plan = planCollection(needs, branch.id, held, sources);
    const transferDays = transfersFor(plan, branch.id).size > 0 ? branch.transferDays : 0;
    const ready = collectReadyAt({ weekly: branch.openingHours, exceptions: branch.hoursExceptions }, at, branch.collectLeadMinutes, branch.collectCutoffMinutes, transferDays);
    return { plan, branch: { id: branch.id, name: branch.name, readyAt: ready ? new Date(londonIso(ready.date, ready.time)) : null } };
  }
  const holding = new Set(held.filter((h) => h.stock > 0).map((h) => h.branchId));
  const postcode = to.postcode ? normalisePostcode(to.postcode) : null;
  const place = postcode && holding.size > 1 ? await builtInProvider(tx).locate(postcode) : null;
  const sources = open.map((b) => ({ id: b.id, isDefault: b.isDefault, miles: place && b.lat !== null && b.lng !== null ? milesBetween(place, { lat: b.lat, lng: b.lng }) : null }));
  return { plan: planFulfilment(needs, sources, held, policy), branch: null };
}
