import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { branches } from "../../branches/schema.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { staff } from "../../staff/schema.ts";
import { hireAllocations, hireRequests, hireUnits } from "../schema.ts";
import type { DepotService } from "./service.ts";
import { hireUnitTransfers } from "./schema.ts";

export interface UnitTransferInput {
  /** The depot's slug the unit moves to. */
  depot: string;
  /** The hire request it moves for, when it does (HR-000123). */
  request_number?: string;
  reason?: string;
}

/**
 * Moves a unit to another depot in the caller's transaction (issue 30, ADR
 * 0048): its `branch_id` changes, a history row and an audit entry record it.
 * The unit's row is locked first, so two transfers of one unit queue. A unit
 * out on hire is moved when it is back. `field` names the 422's field.
 */
export async function transferUnitIn(tx: Db, depots: DepotService, actor: StaffActor, unitId: number, input: UnitTransferInput, field = "depot") {
  const [unit] = await tx.select().from(hireUnits).where(eq(hireUnits.id, unitId)).for("update").limit(1);
  if (!unit) throw new HttpError(404, "No hire unit has that id.");
  const to = await depots.resolve({ slug: input.depot }, field, tx);
  const [from] = await tx.select({ id: branches.id, slug: branches.slug, name: branches.name }).from(branches).where(eq(branches.id, unit.branchId));
  if (unit.branchId === to.id) throw new ValidationError({ [field]: [`Unit ${unit.assetNumber} is already at ${to.name}.`] });
  const [out] = await tx
    .select({ id: hireAllocations.id })
    .from(hireAllocations)
    .where(and(eq(hireAllocations.unitId, unit.id), eq(hireAllocations.kind, "out"), sql`${hireAllocations.releasedAt} is null`))
    .limit(1);
  if (out) throw new HttpError(409, `Unit ${unit.assetNumber} is out on hire: record its transfer when it is back.`);
  let requestId: number | null = null;
  if (input.request_number) {
    const [request] = await tx.select({ id: hireRequests.id }).from(hireRequests).where(eq(hireRequests.number, input.request_number)).limit(1);
    if (!request) throw new ValidationError({ request_number: [`No hire request ${input.request_number}.`] });
    requestId = request.id;
  }
  const reason = input.reason?.trim() ?? "";
  await tx.update(hireUnits).set({ branchId: to.id }).where(eq(hireUnits.id, unit.id));
  await tx.insert(hireUnitTransfers).values({ unitId: unit.id, fromBranchId: unit.branchId, toBranchId: to.id, requestId, reason, staffId: actor.staffId > 0 ? actor.staffId : null });
  await recordAudit(tx, actor, {
    action: "hire_unit.transferred",
    entity: "hire_unit",
    entityId: unit.assetNumber,
    before: { depot: from?.slug ?? null },
    after: { depot: to.slug, ...(input.request_number ? { request: input.request_number } : {}), ...(reason ? { reason } : {}) },
  });
  return { unit_id: unit.id, asset_number: unit.assetNumber, from: { slug: from?.slug ?? "", name: from?.name ?? "" }, to: { slug: to.slug, name: to.name } };
}

/** The hire desk's transfers of units between depots, and a unit's history of them. Needs `hire.desk`. */
export function createUnitTransfers(db: Db, depots: DepotService) {
  return {
    async transfer(actor: StaffActor, unitId: number, input: UnitTransferInput) {
      authorize(actor, "hire.desk");
      return db.transaction((t) => transferUnitIn(t as unknown as Db, depots, actor, unitId, input));
    },

    /** A unit's transfers, newest first. */
    async history(actor: StaffActor, unitId: number) {
      authorize(actor, "hire.desk");
      const from = alias(branches, "from_branch");
      const to = alias(branches, "to_branch");
      const rows = await db
        .select({ t: hireUnitTransfers, from: from.slug, fromName: from.name, to: to.slug, toName: to.name, request: hireRequests.number, by: staff.name })
        .from(hireUnitTransfers)
        .innerJoin(from, eq(from.id, hireUnitTransfers.fromBranchId))
        .innerJoin(to, eq(to.id, hireUnitTransfers.toBranchId))
        .leftJoin(hireRequests, eq(hireRequests.id, hireUnitTransfers.requestId))
        .leftJoin(staff, eq(staff.id, hireUnitTransfers.staffId))
        .where(eq(hireUnitTransfers.unitId, unitId))
        .orderBy(desc(hireUnitTransfers.id))
        .limit(100);
      return rows.map((r) => ({
        from: { slug: r.from, name: r.fromName },
        to: { slug: r.to, name: r.toName },
        request_number: r.request,
        reason: r.t.reason,
        by: r.by,
        at: r.t.createdAt.toISOString(),
      }));
    },
  };
}

export type UnitTransfers = ReturnType<typeof createUnitTransfers>;
