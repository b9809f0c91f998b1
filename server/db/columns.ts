// The columns every table of the shop writes the same way, so a table's
// definition reads as what it holds. Each builder makes a new column each
// call (Drizzle's builders are mutable), and each is exactly what it replaces:
// the database, and the migrations drizzle-kit writes, do not change with them.
import { sql } from "drizzle-orm";
import { type ReferenceConfig, integer, serial, text, timestamp } from "drizzle-orm/pg-core";

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

// Sets of columns that mean the same thing in every table that has them. Each
// is a function, so every table gets builders of its own; a table spreads the
// set where the columns stood, and keeps its own names for the database.

/**
 * How a table's address lines are named in the database: `line1` (the address
 * book, trade accounts and sites) or `line_1` (branches, orders, the postcode
 * finder). The names stay as the migrations made them.
 */
export type AddressLineNames = "line1" | "line_1";

/** The database name of address line `n` in a table whose lines are named like `names`. */
type AddressLine<N extends AddressLineNames, K extends 1 | 2 | 3> = N extends "line1" ? `line${K}` : `line_${K}`;

const addressLine = <N extends AddressLineNames, K extends 1 | 2 | 3>(names: N, n: K) =>
  (names === "line1" ? `line${n}` : `line_${n}`) as AddressLine<N, K>;

/** A UK postal address: the first line, town and postcode are required; the second line and county may be empty. */
export const ukAddress = <N extends AddressLineNames>(lineNames: N) => ({
  line1: text(addressLine(lineNames, 1)).notNull(),
  line2: text(addressLine(lineNames, 2)).notNull().default(""),
  town: text("town").notNull(),
  county: text("county").notNull().default(""),
  /** Normalised, e.g. `SW1A 1AA`. */
  postcode: text("postcode").notNull(),
});

/** A UK postal address with the third line the postcode finder's addresses have (and an order's copy of one). */
export const threeLineUkAddress = () => {
  const { line1, line2, ...rest } = ukAddress("line_1");
  return { line1, line2, line3: text(addressLine("line_1", 3)).notNull().default(""), ...rest };
};

/**
 * A single-use secret sent by email (a password reset, a staff set-up link):
 * only its SHA-256 is kept; it expires, and using it marks it used.
 */
export const singleUseToken = () => ({
  tokenHash: text("token_hash").notNull(),
  expiresAt: timestamptz("expires_at").notNull(),
  usedAt: timestamptz("used_at"),
  createdAt: createdAt(),
});

/** Whose a basket is: a user's, or a guest's by the SHA-256 of the `tc_guest` cookie. Deleting the user deletes it. */
export const basketOwner = (users: ReferenceConfig["ref"]) => ({
  userId: optionalRef("user_id", users, { onDelete: "cascade" }),
  guestTokenHash: text("guest_token_hash"),
});

/**
 * A sale's money, in pence: goods ex VAT, their VAT, delivery inc VAT, and the
 * total. Orders name the columns plainly; trade documents (invoices, credit
 * notes) end their names in `_pence`.
 */
const saleTotals = <S extends "" | "_pence", D>(suffix: S, delivery: D) => ({
  subtotal: integer(`subtotal${suffix}`).notNull(),
  vat: integer(`vat${suffix}`).notNull(),
  delivery,
  total: integer(`total${suffix}`).notNull(),
});

/** An order's money. */
export const orderTotals = () => saleTotals("", integer("delivery").notNull());

/** An invoice's money: its delivery is always stated. */
export const invoiceTotalsPence = () => saleTotals("_pence", integer("delivery_pence").notNull());

/** A credit note's money: it credits delivery only when it says so. */
export const creditNoteTotalsPence = () => saleTotals("_pence", integer("delivery_pence").notNull().default(0));

/** A charged line's money, in pence: ex VAT, and its VAT. */
export const netAndVatPence = () => ({
  net: integer("net_pence").notNull(),
  vat: integer("vat_pence").notNull(),
});

/** A timeline entry's move (the status it moved to) and what was said with it. */
export const statusWithNote = () => ({
  status: text("status").notNull(),
  note: text("note").notNull().default(""),
});

/** A person's name in two parts, as they gave it (an account's holder, an address book entry's recipient). */
export const personName = () => ({
  firstname: text("firstname").notNull(),
  lastname: text("lastname").notNull(),
});

/** How to reach whoever asked (a hire's customer, a consultation's): a name, an email and a phone number, all required. */
export const contactDetails = () => ({
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
});

/** What a row with a page of its own is called: its slug (the page's URL; each table keeps it unique) and its name. */
export const slugAndName = () => ({
  slug: text("slug").notNull(),
  name: text("name").notNull(),
});
