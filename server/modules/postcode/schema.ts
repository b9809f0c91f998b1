import { doublePrecision, index, pgTable, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { serialId, threeLineUkAddress } from "../../db/columns.ts";

/** The built-in provider's addresses, filled by `npm run postcodes:import -- FILE.csv`. */
export const postcodeAddresses = pgTable(
  "postcode_addresses",
  {
    id: serialId(),
    ...threeLineUkAddress(),
  },
  (t) => [index("postcode_addresses_postcode_idx").using("btree", sql`${t.postcode} text_pattern_ops`)],
);

/**
 * Where a postcode is (issue 30): filled by `npm run postcodes:import` from a
 * file with latitude and longitude columns (the ONS Postcode Directory or
 * Code-Point Open, Open Government Licence), and by the demo for its own.
 */
export const postcodeLocations = pgTable(
  "postcode_locations",
  {
    /** Normalised, e.g. `LS1 4AP`. */
    postcode: text("postcode").primaryKey(),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
  },
  // The outward code's centroid is a prefix read ("LS1 %").
  (t) => [index("postcode_locations_prefix_idx").using("btree", sql`${t.postcode} text_pattern_ops`)],
);
