CREATE TABLE "trade_sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"trade_account_id" integer NOT NULL,
	"name" text NOT NULL,
	"line1" text NOT NULL,
	"line2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"postcode" text NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"po_required" boolean DEFAULT false NOT NULL,
	"po_prefix" text DEFAULT '' NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_sites_name" CHECK (length("trade_sites"."name") between 1 and 80)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "trade_sites" ADD CONSTRAINT "trade_sites_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trade_sites_account_name_key" ON "trade_sites" USING btree ("trade_account_id",lower("name")) WHERE "trade_sites"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "trade_sites_account_idx" ON "trade_sites" USING btree ("trade_account_id","name");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_site_id_trade_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."trade_sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD CONSTRAINT "trade_invoices_site_id_trade_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."trade_sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_site_id_trade_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."trade_sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_site_idx" ON "orders" USING btree ("site_id","id") WHERE "orders"."site_id" is not null;--> statement-breakpoint
CREATE INDEX "trade_invoices_site_idx" ON "trade_invoices" USING btree ("site_id","invoice_date") WHERE "trade_invoices"."site_id" is not null;