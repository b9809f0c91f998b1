import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, serialId } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";

/** Contact and design-consultation enquiries, kept and emailed to the shop. */
export const enquiries = pgTable(
  "enquiries",
  {
    id: serialId(),
    type: text("type").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    postcode: text("postcode").notNull().default(""),
    message: text("message").notNull(),
    userId: optionalRef("user_id", () => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("enquiries_created_idx").on(t.createdAt)],
);
