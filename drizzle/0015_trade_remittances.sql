CREATE TABLE "trade_remittance_invoices" (
	"remittance_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	CONSTRAINT "trade_remittance_invoices_remittance_id_invoice_id_pk" PRIMARY KEY("remittance_id","invoice_id")
);
--> statement-breakpoint
CREATE TABLE "trade_remittances" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"trade_account_id" integer NOT NULL,
	"amount_pence" integer NOT NULL,
	"provider" text NOT NULL,
	"created_by" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_remittances_status" CHECK ("trade_remittances"."status" in ('pending', 'confirmed')),
	CONSTRAINT "trade_remittances_amount_positive" CHECK ("trade_remittances"."amount_pence" > 0)
);
--> statement-breakpoint
ALTER TABLE "trade_remittance_invoices" ADD CONSTRAINT "trade_remittance_invoices_remittance_id_trade_remittances_id_fk" FOREIGN KEY ("remittance_id") REFERENCES "public"."trade_remittances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_remittance_invoices" ADD CONSTRAINT "trade_remittance_invoices_invoice_id_trade_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."trade_invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_remittances" ADD CONSTRAINT "trade_remittances_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_remittances" ADD CONSTRAINT "trade_remittances_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_remittance_invoices_invoice_idx" ON "trade_remittance_invoices" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_remittances_reference_key" ON "trade_remittances" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "trade_remittances_account_idx" ON "trade_remittances" USING btree ("trade_account_id","created_at");