-- Hire depots (issue 30). The depot a unit is based at when none is named:
-- the default branch if it is a hire depot, else the first open hire depot in
-- the merchant's order, else the default branch (a shop with no depot hires
-- from its default branch). Existing units, and units made by code that
-- names no depot, get it.
CREATE FUNCTION "hire_default_depot"() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT id FROM branches WHERE status = 'open' AND 'hire' = ANY(services) ORDER BY is_default DESC, position, id LIMIT 1),
    (SELECT id FROM branches WHERE is_default)
  )
$$;
--> statement-breakpoint
CREATE TABLE "hire_delivery_bands" (
	"id" serial PRIMARY KEY NOT NULL,
	"up_to_miles" integer NOT NULL,
	"price_pence" integer NOT NULL,
	CONSTRAINT "hire_delivery_bands_values" CHECK ("hire_delivery_bands"."up_to_miles" between 1 and 1000 and "hire_delivery_bands"."price_pence" between 0 and 10000000)
);
--> statement-breakpoint
CREATE TABLE "hire_unit_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"unit_id" integer NOT NULL,
	"from_branch_id" integer NOT NULL,
	"to_branch_id" integer NOT NULL,
	"request_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hire_unit_transfers_moves" CHECK ("hire_unit_transfers"."from_branch_id" <> "hire_unit_transfers"."to_branch_id")
);
--> statement-breakpoint
ALTER TABLE "hire_baskets" ADD COLUMN "branch_id" integer;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "branch_id" integer;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "delivery_charge_pence" integer;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "delivery_vat_pence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "delivery_miles" double precision;--> statement-breakpoint
-- Requests made before depots went out from where their units now are.
UPDATE "hire_requests" SET "branch_id" = hire_default_depot();--> statement-breakpoint
ALTER TABLE "hire_units" ADD COLUMN "branch_id" integer DEFAULT hire_default_depot() NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_unit_transfers" ADD CONSTRAINT "hire_unit_transfers_unit_id_hire_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."hire_units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_unit_transfers" ADD CONSTRAINT "hire_unit_transfers_from_branch_id_branches_id_fk" FOREIGN KEY ("from_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_unit_transfers" ADD CONSTRAINT "hire_unit_transfers_to_branch_id_branches_id_fk" FOREIGN KEY ("to_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_unit_transfers" ADD CONSTRAINT "hire_unit_transfers_request_id_hire_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."hire_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hire_delivery_bands_miles_key" ON "hire_delivery_bands" USING btree ("up_to_miles");--> statement-breakpoint
CREATE INDEX "hire_unit_transfers_unit_idx" ON "hire_unit_transfers" USING btree ("unit_id","id");--> statement-breakpoint
ALTER TABLE "hire_baskets" ADD CONSTRAINT "hire_baskets_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_units" ADD CONSTRAINT "hire_units_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hire_requests_branch_idx" ON "hire_requests" USING btree ("branch_id","id");--> statement-breakpoint
CREATE INDEX "hire_units_depot_idx" ON "hire_units" USING btree ("branch_id","hire_item_id");--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_delivery" CHECK (("hire_requests"."delivery_charge_pence" is null or "hire_requests"."delivery_charge_pence" >= 0) and "hire_requests"."delivery_vat_pence" >= 0);