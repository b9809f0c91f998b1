import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { serialId } from "../../db/columns.ts";

/** Delivery methods, kept in the database so checkout and the /delivery page read the same rules. */
export const deliveryMethods = pgTable(
  "delivery_methods",
  {
    id: serialId(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** delivery | next_day | collect */
    kind: text("kind").notNull(),
    /** Pence inc VAT. */
    price: integer("price").notNull().default(0),
    /** Free at or above this basket total (pence inc VAT); null: never free. */
    freeOver: integer("free_over"),
    /** Orders after this London time go a working day later, e.g. `14:00`. */
    cutoff: text("cutoff"),
    /** Added once per order holding a heavy item (pence inc VAT). */
    heavySurcharge: integer("heavy_surcharge").notNull().default(0),
    position: integer("position").notNull().default(0),
    active: boolean("active").notNull().default(true),
  },
  (t) => [uniqueIndex("delivery_methods_code_key").on(t.code)],
);

/**
 * Postcode zones by outward code: an area (`PA`) and optionally a district
 * range (`20`–`49`). They add a surcharge or are not served.
 */
export const deliveryZones = pgTable("delivery_zones", {
  id: serialId(),
  name: text("name").notNull(),
  area: text("area").notNull(),
  districtFrom: integer("district_from"),
  districtTo: integer("district_to"),
  /** surcharge | not_served */
  action: text("action").notNull(),
  surcharge: integer("surcharge").notNull().default(0),
  /** Next-day delivery is not offered here. */
  noNextDay: boolean("no_next_day").notNull().default(sql`true`),
});
