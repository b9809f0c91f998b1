// The columns every table of the shop writes the same way, so a table's
// definition reads as what it holds. Each builder makes a new column each
// call (Drizzle's builders are mutable), and each is exactly what it replaces:
// the database, and the migrations drizzle-kit writes, do not change with them.
import { sql } from "drizzle-orm";
import { type ReferenceConfig, integer, serial, timestamp } from "drizzle-orm/pg-core";

/** The table's own id: a `serial` primary key. */
export const serialId = () => serial("id").primaryKey();

/** A moment in time, kept with its time zone (`timestamp with time zone`): the shop keeps no other kind. */
export const timestamptz = <TName extends string>(name: TName) => timestamp(name, { withTimezone: true });

/** A moment the database writes when the row is made, unless the insert names one. */
export const timestampNow = <TName extends string>(name: TName) => timestamptz(name).notNull().default(sql`now()`);

/** When the row was made. */
export const createdAt = () => timestampNow("created_at");

/** When the row last changed: set when it is made; what changes the row moves it. */
export const updatedAt = () => timestampNow("updated_at");

/** `created_at` and `updated_at`, for tables whose rows change after they are made. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** What becomes of the row when the row it points at is deleted (or its id changes). */
type RefActions = ReferenceConfig["actions"];

/** A row this one cannot be without: an integer column, not null, holding another table's id. */
export const ref = <TName extends string>(name: TName, target: ReferenceConfig["ref"], actions?: RefActions) =>
  integer(name).notNull().references(target, actions);

/** A row this one may point at: an integer column, null when it points at none. */
export const optionalRef = <TName extends string>(name: TName, target: ReferenceConfig["ref"], actions?: RefActions) =>
  integer(name).references(target, actions);
