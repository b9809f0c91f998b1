import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, netAndVatPence, optionalRef, ref, serialId, timestampNow, timestamptz } from "../../../db/columns.ts";
import { staff } from "../../staff/schema.ts";
import { hireAllocations, hireRequestLines, hireRequests, hireUnits } from "../schema.ts";

/**
 * One unit handed over on a hire request (issue 21): what went out, in what
 * state, with whom; then the customer's off-hire (charging stops on its date)
 * and the unit's return. One row per allocation handed over.
 */
export const hireHandovers = pgTable(
  "hire_handovers",
  {
    id: serialId(),
    requestId: ref("request_id", () => hireRequests.id, { onDelete: "cascade" }),
    requestLineId: ref("request_line_id", () => hireRequestLines.id, { onDelete: "cascade" }),
    allocationId: ref("allocation_id", () => hireAllocations.id, { onDelete: "restrict" }),
    unitId: ref("unit_id", () => hireUnits.id, { onDelete: "restrict" }),
    /** Readable, `HA-000123`: printed on the hire agreement. */
    agreementNumber: text("agreement_number").notNull(),
    /** The sha256 of the token in the agreement link emailed to the customer (a guest has no account to see it in). */
    agreementTokenHash: text("agreement_token_hash").notNull(),
    /** The calendar date (Europe/London) it went out: charging starts then, or on the booked start if later. */
    handedOverOn: date("handed_over_on", { mode: "string" }).notNull(),
    handedOverAt: timestampNow("handed_over_at"),
    handedOverBy: optionalRef("handed_over_by", () => staff.id, { onDelete: "set null" }),
    conditionOut: text("condition_out").notNull(),
    accessories: text("accessories").notNull().default(""),
    idChecked: boolean("id_checked").notNull(),
    /** The document seen, e.g. "driving licence"; empty when no ID was checked. */
    idType: text("id_type").notNull().default(""),
    /** The day charging stops (UK hire terms): the customer's call, not the collection. */
    offHireOn: date("off_hire_on", { mode: "string" }),
    /** Readable, `OH-000123`, given to the customer. */
    offHireReference: text("off_hire_reference"),
    offHireNote: text("off_hire_note").notNull().default(""),
    offHiredAt: timestamptz("off_hired_at"),
    offHiredBy: optionalRef("off_hired_by", () => staff.id, { onDelete: "set null" }),
    returnedOn: date("returned_on", { mode: "string" }),
    returnedAt: timestamptz("returned_at"),
    returnedBy: optionalRef("returned_by", () => staff.id, { onDelete: "set null" }),
    conditionIn: text("condition_in").notNull().default(""),
  },
  (t) => [
    uniqueIndex("hire_handovers_allocation_key").on(t.allocationId),
    uniqueIndex("hire_handovers_agreement_key").on(t.agreementNumber),
    uniqueIndex("hire_handovers_agreement_token_key").on(t.agreementTokenHash),
    uniqueIndex("hire_handovers_off_hire_key").on(t.offHireReference).where(sql`${t.offHireReference} is not null`),
    index("hire_handovers_request_idx").on(t.requestId),
    check("hire_handovers_off_hire", sql`(${t.offHireOn} is null) = (${t.offHireReference} is null)`),
    check("hire_handovers_returned", sql`(${t.returnedOn} is null) = (${t.returnedAt} is null)`),
  ],
);

export const HIRE_CHARGE_KINDS = ["hire", "late", "damage", "cleaning", "other", "deposit"] as const;
export type HireChargeKind = (typeof HIRE_CHARGE_KINDS)[number];

/**
 * What a hire costs in the end, line by line: the hire for the days out and
 * any late days (worked by the pricing engine at return), damage, cleaning or
 * other charges with reasons, and the deposit held (a negative line). Pence.
 */
export const hireCharges = pgTable(
  "hire_charges",
  {
    id: serialId(),
    requestId: ref("request_id", () => hireRequests.id, { onDelete: "cascade" }),
    handoverId: optionalRef("handover_id", () => hireHandovers.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: HIRE_CHARGE_KINDS }).notNull(),
    description: text("description").notNull(),
    reason: text("reason").notNull().default(""),
    vatRate: integer("vat_rate").notNull(),
    ...netAndVatPence(),
    createdBy: optionalRef("created_by", () => staff.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("hire_charges_request_idx").on(t.requestId, t.id),
    check("hire_charges_kind", sql`${t.kind} in ('hire', 'late', 'damage', 'cleaning', 'other', 'deposit')`),
    check("hire_charges_sign", sql`(${t.kind} = 'deposit' and ${t.net} <= 0 and ${t.vat} = 0) or (${t.kind} <> 'deposit' and ${t.net} >= 0 and ${t.vat} >= 0)`),
    check("hire_charges_reason", sql`${t.kind} not in ('damage', 'cleaning', 'other') or ${t.reason} <> ''`),
  ],
);
