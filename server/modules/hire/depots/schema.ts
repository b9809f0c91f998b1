import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId } from "../../../db/columns.ts";
import { branches } from "../../branches/schema.ts";
import { hireRequests, hireUnits } from "../schema.ts";

/**
 * A hire unit moved from one depot to another (issue 30): the unit's
 * `branch_id` changes in the same transaction, so this is its history. A
 * transfer made for a hire request names it.
 */
export const hireUnitTransfers = pgTable(
  "hire_unit_transfers",
  {
    id: serialId(),
    unitId: ref("unit_id", () => hireUnits.id, { onDelete: "cascade" }),
    fromBranchId: ref("from_branch_id", () => branches.id, { onDelete: "restrict" }),
    toBranchId: ref("to_branch_id", () => branches.id, { onDelete: "restrict" }),
    requestId: optionalRef("request_id", () => hireRequests.id, { onDelete: "set null" }),
    reason: text("reason").notNull().default(""),
    /** The staff member who recorded it; null for the system. */
    staffId: integer("staff_id"),
    createdAt: createdAt(),
  },
  (t) => [index("hire_unit_transfers_unit_idx").on(t.unitId, t.id), check("hire_unit_transfers_moves", sql`${t.fromBranchId} <> ${t.toBranchId}`)],
);

/**
 * The merchant's delivery bands for hired equipment (issue 30), one set for
 * the shop: a site up to `up_to_miles` from the depot (as the crow flies) is
 * delivered and collected for `price_pence` ex VAT, the smallest band that
 * reaches it; beyond the last band it is not delivered. No bands: delivery is
 * not priced online (the hire desk quotes it, as before depots).
 */
export const hireDeliveryBands = pgTable(
  "hire_delivery_bands",
  {
    id: serialId(),
    upToMiles: integer("up_to_miles").notNull(),
    pricePence: integer("price_pence").notNull(),
  },
  (t) => [uniqueIndex("hire_delivery_bands_miles_key").on(t.upToMiles), check("hire_delivery_bands_values", sql`${t.upToMiles} between 1 and 1000 and ${t.pricePence} between 0 and 10000000`)],
);
