import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ref, timestampNow } from "../../db/columns.ts";
import { staff } from "../staff/schema.ts";

/**
 * Every staff write (ADR 0030): who, when, through which door, what (entity and
 * id), the action, and the fields before and after, written in the same
 * transaction as the change. A trigger refuses UPDATE, DELETE and TRUNCATE, so
 * nothing in the application can rewrite it.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestampNow("at"),
    staffId: ref("staff_id", () => staff.id),
    /** The member's name and email as they were, so the entry reads the same after they change. */
    staffName: text("staff_name").notNull(),
    /** `screen`, `api` (a staff session), `token` (a staff API token, named in `token_name`) or `cli`. */
    via: text("via").notNull(),
    tokenName: text("token_name"),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entity, t.entityId, t.id),
    index("audit_log_staff_idx").on(t.staffId, t.id),
    index("audit_log_action_idx").on(t.action, t.id),
    index("audit_log_at_idx").on(t.at),
  ],
);
