// The shared column builders write exactly the SQL the tables spelled out
// before them: drizzle-kit, which writes the migrations, is asked for the
// statements that would create two small tables made with them.
import { sql } from "drizzle-orm";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import { type PgColumnBuilderBase, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import {
  basketOwner,
  contactDetails,
  createdAt,
  creditNoteTotalsPence,
  invoiceTotalsPence,
  netAndVatPence,
  optionalRef,
  orderTotals,
  personName,
  ref,
  serialId,
  singleUseToken,
  slugAndName,
  statusWithNote,
  threeLineUkAddress,
  timestampNow,
  timestamps,
  timestamptz,
  ukAddress,
} from "./columns.ts";

const owners = pgTable("owners", {
  id: serialId(),
  name: text("name").notNull(),
  ...timestamps(),
});

const pets = pgTable("pets", {
  id: serialId(),
  ownerId: ref("owner_id", () => owners.id, { onDelete: "cascade" }),
  vetId: optionalRef("vet_id", () => owners.id, { onDelete: "set null" }),
  walkerId: ref("walker_id", () => owners.id),
  fedAt: timestamptz("fed_at"),
  seenAt: timestampNow("seen_at"),
  createdAt: createdAt(),
});

/** The statements drizzle-kit writes to create these tables in an empty database. */
async function createStatements(tables: Record<string, unknown>): Promise<string[]> {
  return generateMigration(generateDrizzleJson({}), generateDrizzleJson(tables));
}

describe("the shared column builders", () => {
  it("write the id, timestamps and references the shop's tables have always had", async () => {
    expect(await createStatements({ owners, pets })).toEqual([
      `CREATE TABLE "owners" (\n\t"id" serial PRIMARY KEY NOT NULL,\n\t"name" text NOT NULL,\n\t"created_at" timestamp with time zone DEFAULT now() NOT NULL,\n\t"updated_at" timestamp with time zone DEFAULT now() NOT NULL\n);\n`,
      `CREATE TABLE "pets" (\n\t"id" serial PRIMARY KEY NOT NULL,\n\t"owner_id" integer NOT NULL,\n\t"vet_id" integer,\n\t"walker_id" integer NOT NULL,\n\t"fed_at" timestamp with time zone,\n\t"seen_at" timestamp with time zone DEFAULT now() NOT NULL,\n\t"created_at" timestamp with time zone DEFAULT now() NOT NULL\n);\n`,
      `ALTER TABLE "pets" ADD CONSTRAINT "pets_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;`,
      `ALTER TABLE "pets" ADD CONSTRAINT "pets_vet_id_owners_id_fk" FOREIGN KEY ("vet_id") REFERENCES "public"."owners"("id") ON DELETE set null ON UPDATE no action;`,
      `ALTER TABLE "pets" ADD CONSTRAINT "pets_walker_id_owners_id_fk" FOREIGN KEY ("walker_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;`,
    ]);
  });

  it("are the same tables as Drizzle's own builders spelled out: no migration between them", async () => {
    const spelledOwners = pgTable("owners", {
      id: serial("id").primaryKey(),
      name: text("name").notNull(),
      createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
      updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
    });
    const spelledPets = pgTable("pets", {
      id: serial("id").primaryKey(),
      ownerId: integer("owner_id")
        .notNull()
        .references(() => spelledOwners.id, { onDelete: "cascade" }),
      vetId: integer("vet_id").references(() => spelledOwners.id, { onDelete: "set null" }),
      walkerId: integer("walker_id")
        .notNull()
        .references(() => spelledOwners.id),
      fedAt: timestamp("fed_at", { withTimezone: true }),
      seenAt: timestamp("seen_at", { withTimezone: true }).notNull().default(sql`now()`),
      createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
    });
    const spelled = generateDrizzleJson({ owners: spelledOwners, pets: spelledPets });
    const built = generateDrizzleJson({ owners, pets }, spelled.id);
    expect(await generateMigration(spelled, built)).toEqual([]);
  });

  it("make a new column each call, so one table's settings never reach another's", () => {
    expect(createdAt()).not.toBe(createdAt());
    expect(ref("owner_id", () => owners.id)).not.toBe(ref("owner_id", () => owners.id));
  });
});

// Each set alone in a table, with the columns it makes: the names, types,
// defaults and nullability the shop's tables had when they spelled them out.
const setCases: [string, Record<string, PgColumnBuilderBase>, string[]][] = [
  ["a UK address, lines named line1", ukAddress("line1"), [`"line1" text NOT NULL`, `"line2" text DEFAULT '' NOT NULL`, `"town" text NOT NULL`, `"county" text DEFAULT '' NOT NULL`, `"postcode" text NOT NULL`]],
  ["a UK address, lines named line_1", ukAddress("line_1"), [`"line_1" text NOT NULL`, `"line_2" text DEFAULT '' NOT NULL`, `"town" text NOT NULL`, `"county" text DEFAULT '' NOT NULL`, `"postcode" text NOT NULL`]],
  ["a three-line UK address", threeLineUkAddress(), [`"line_1" text NOT NULL`, `"line_2" text DEFAULT '' NOT NULL`, `"line_3" text DEFAULT '' NOT NULL`, `"town" text NOT NULL`, `"county" text DEFAULT '' NOT NULL`, `"postcode" text NOT NULL`]],
  ["a single-use token", singleUseToken(), [`"token_hash" text NOT NULL`, `"expires_at" timestamp with time zone NOT NULL`, `"used_at" timestamp with time zone`, `"created_at" timestamp with time zone DEFAULT now() NOT NULL`]],
  ["an order's totals", orderTotals(), [`"subtotal" integer NOT NULL`, `"vat" integer NOT NULL`, `"delivery" integer NOT NULL`, `"total" integer NOT NULL`]],
  ["an invoice's totals", invoiceTotalsPence(), [`"subtotal_pence" integer NOT NULL`, `"vat_pence" integer NOT NULL`, `"delivery_pence" integer NOT NULL`, `"total_pence" integer NOT NULL`]],
  ["a credit note's totals", creditNoteTotalsPence(), [`"subtotal_pence" integer NOT NULL`, `"vat_pence" integer NOT NULL`, `"delivery_pence" integer DEFAULT 0 NOT NULL`, `"total_pence" integer NOT NULL`]],
  ["a line's net and VAT", netAndVatPence(), [`"net_pence" integer NOT NULL`, `"vat_pence" integer NOT NULL`]],
  ["a timeline entry's status and note", statusWithNote(), [`"status" text NOT NULL`, `"note" text DEFAULT '' NOT NULL`]],
  ["a person's name", personName(), [`"firstname" text NOT NULL`, `"lastname" text NOT NULL`]],
  ["contact details", contactDetails(), [`"name" text NOT NULL`, `"email" text NOT NULL`, `"phone" text NOT NULL`]],
  ["a page's slug and name", slugAndName(), [`"slug" text NOT NULL`, `"name" text NOT NULL`]],
];

describe("the shared column sets", () => {
  it.each(setCases)("make %s as the tables had it", async (_name, columns, expected) => {
    expect(await createStatements({ sets: pgTable("sets", columns) })).toEqual([`CREATE TABLE "sets" (\n\t${expected.join(",\n\t")}\n);\n`]);
  });

  it("make a basket's owner: a user, deleted with them, or a guest's hashed cookie", async () => {
    const baskets = pgTable("baskets", basketOwner(() => owners.id));
    expect(await createStatements({ baskets })).toEqual([
      `CREATE TABLE "baskets" (\n\t"user_id" integer,\n\t"guest_token_hash" text\n);\n`,
      `ALTER TABLE "baskets" ADD CONSTRAINT "baskets_user_id_owners_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;`,
    ]);
  });

  it("make new columns each call, so one table's settings never reach another's", () => {
    expect(ukAddress("line1").postcode).not.toBe(ukAddress("line1").postcode);
    expect(singleUseToken().tokenHash).not.toBe(singleUseToken().tokenHash);
  });
});
