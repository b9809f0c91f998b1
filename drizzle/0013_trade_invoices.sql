CREATE TABLE "trade_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"trade_account_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"subtotal_pence" integer NOT NULL,
	"vat_pence" integer NOT NULL,
	"delivery_pence" integer NOT NULL,
	"total_pence" integer NOT NULL,
	"po_reference" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_invoices_status" CHECK ("trade_invoices"."status" in ('unpaid', 'payment_pending', 'paid')),
	CONSTRAINT "trade_invoices_total_positive" CHECK ("trade_invoices"."total_pence" >= 0),
	CONSTRAINT "trade_invoices_due_after_invoice" CHECK ("trade_invoices"."due_date" >= "trade_invoices"."invoice_date")
);
--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD COLUMN "balance_pence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD CONSTRAINT "trade_invoices_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD CONSTRAINT "trade_invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trade_invoices_number_key" ON "trade_invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_invoices_order_key" ON "trade_invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "trade_invoices_account_idx" ON "trade_invoices" USING btree ("trade_account_id","status","due_date");--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD CONSTRAINT "trade_accounts_balance_positive" CHECK ("trade_accounts"."balance_pence" >= 0);