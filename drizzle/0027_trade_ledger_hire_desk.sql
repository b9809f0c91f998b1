CREATE TABLE "trade_account_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"trade_account_id" integer NOT NULL,
	"staff_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_credit_note_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"credit_note_id" integer NOT NULL,
	"source" text NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"net_pence" integer NOT NULL,
	"vat_pence" integer NOT NULL,
	CONSTRAINT "trade_credit_note_lines_quantity_positive" CHECK ("trade_credit_note_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "trade_credit_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"trade_account_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"reason" text NOT NULL,
	"issued_on" date NOT NULL,
	"subtotal_pence" integer NOT NULL,
	"vat_pence" integer NOT NULL,
	"delivery_pence" integer DEFAULT 0 NOT NULL,
	"total_pence" integer NOT NULL,
	"applied_pence" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_credit_notes_total_positive" CHECK ("trade_credit_notes"."total_pence" > 0 and "trade_credit_notes"."applied_pence" between 0 and "trade_credit_notes"."total_pence")
);
--> statement-breakpoint
CREATE TABLE "trade_payment_allocations" (
	"payment_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"amount_pence" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_payment_allocations_payment_id_invoice_id_pk" PRIMARY KEY("payment_id","invoice_id"),
	CONSTRAINT "trade_payment_allocations_amount_positive" CHECK ("trade_payment_allocations"."amount_pence" > 0)
);
--> statement-breakpoint
CREATE TABLE "trade_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"trade_account_id" integer NOT NULL,
	"amount_pence" integer NOT NULL,
	"method" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"received_on" date NOT NULL,
	"unallocated_pence" integer NOT NULL,
	"remittance_id" integer,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_payments_method" CHECK ("trade_payments"."method" in ('bacs', 'cheque', 'card', 'cash')),
	CONSTRAINT "trade_payments_amount_positive" CHECK ("trade_payments"."amount_pence" > 0),
	CONSTRAINT "trade_payments_unallocated_range" CHECK ("trade_payments"."unallocated_pence" between 0 and "trade_payments"."amount_pence")
);
--> statement-breakpoint
CREATE TABLE "trade_reminders" (
	"invoice_id" integer NOT NULL,
	"stage" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_reminders_invoice_id_stage_pk" PRIMARY KEY("invoice_id","stage"),
	CONSTRAINT "trade_reminders_stage" CHECK ("trade_reminders"."stage" in ('due', 'overdue_7', 'overdue_14'))
);
--> statement-breakpoint
CREATE TABLE "trade_statements" (
	"trade_account_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_statements_trade_account_id_period_start_pk" PRIMARY KEY("trade_account_id","period_start")
);
--> statement-breakpoint
ALTER TABLE "hire_allocations" DROP CONSTRAINT "hire_allocations_kind_check";--> statement-breakpoint
ALTER TABLE "trade_accounts" DROP CONSTRAINT "trade_accounts_balance_positive";--> statement-breakpoint
ALTER TABLE "trade_invoices" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_allocations" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD COLUMN "on_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD COLUMN "hold_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD COLUMN "decision_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD COLUMN "info_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD COLUMN "hire_request_id" integer;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD COLUMN "paid_pence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD COLUMN "credited_pence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_account_notes" ADD CONSTRAINT "trade_account_notes_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_account_notes" ADD CONSTRAINT "trade_account_notes_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_credit_note_lines" ADD CONSTRAINT "trade_credit_note_lines_credit_note_id_trade_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."trade_credit_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_credit_notes" ADD CONSTRAINT "trade_credit_notes_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_credit_notes" ADD CONSTRAINT "trade_credit_notes_invoice_id_trade_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."trade_invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_credit_notes" ADD CONSTRAINT "trade_credit_notes_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_payment_allocations" ADD CONSTRAINT "trade_payment_allocations_payment_id_trade_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."trade_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_payment_allocations" ADD CONSTRAINT "trade_payment_allocations_invoice_id_trade_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."trade_invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_payments" ADD CONSTRAINT "trade_payments_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_payments" ADD CONSTRAINT "trade_payments_remittance_id_trade_remittances_id_fk" FOREIGN KEY ("remittance_id") REFERENCES "public"."trade_remittances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_payments" ADD CONSTRAINT "trade_payments_recorded_by_staff_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_reminders" ADD CONSTRAINT "trade_reminders_invoice_id_trade_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."trade_invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_statements" ADD CONSTRAINT "trade_statements_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_account_notes_account_idx" ON "trade_account_notes" USING btree ("trade_account_id","created_at");--> statement-breakpoint
CREATE INDEX "trade_credit_note_lines_note_idx" ON "trade_credit_note_lines" USING btree ("credit_note_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_credit_notes_number_key" ON "trade_credit_notes" USING btree ("number");--> statement-breakpoint
CREATE INDEX "trade_credit_notes_account_idx" ON "trade_credit_notes" USING btree ("trade_account_id","issued_on");--> statement-breakpoint
CREATE INDEX "trade_credit_notes_invoice_idx" ON "trade_credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "trade_payment_allocations_invoice_idx" ON "trade_payment_allocations" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_payments_number_key" ON "trade_payments" USING btree ("number");--> statement-breakpoint
CREATE INDEX "trade_payments_account_idx" ON "trade_payments" USING btree ("trade_account_id","received_on");--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD CONSTRAINT "trade_invoices_hire_request_id_hire_requests_id_fk" FOREIGN KEY ("hire_request_id") REFERENCES "public"."hire_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_accounts_state_idx" ON "trade_accounts" USING btree ("state","company_name");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_invoices_hire_request_key" ON "trade_invoices" USING btree ("hire_request_id") WHERE "trade_invoices"."hire_request_id" is not null;--> statement-breakpoint
CREATE INDEX "trade_invoices_due_idx" ON "trade_invoices" USING btree ("due_date") WHERE "trade_invoices"."status" <> 'paid';--> statement-breakpoint
ALTER TABLE "hire_allocations" ADD CONSTRAINT "hire_allocations_kind_check" CHECK ("hire_allocations"."kind" in ('hold', 'booking', 'out', 'service'));--> statement-breakpoint
ALTER TABLE "trade_accounts" ADD CONSTRAINT "trade_accounts_hold_reason" CHECK ("trade_accounts"."hold_reason" in ('', 'overdue', 'manual') and ("trade_accounts"."on_hold" = ("trade_accounts"."hold_reason" <> '')));--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD CONSTRAINT "trade_invoices_one_source" CHECK (("trade_invoices"."order_id" is null) <> ("trade_invoices"."hire_request_id" is null));--> statement-breakpoint
ALTER TABLE "trade_invoices" ADD CONSTRAINT "trade_invoices_settled_within_total" CHECK ("trade_invoices"."paid_pence" >= 0 and "trade_invoices"."credited_pence" >= 0 and "trade_invoices"."paid_pence" + "trade_invoices"."credited_pence" <= "trade_invoices"."total_pence");--> statement-breakpoint
-- Invoices paid before the ledger: each gets a payment of its total, allocated
-- to it, so that "balance = invoices − credit notes − payments" holds for
-- every account from the start (ADR 0040).
UPDATE "trade_invoices" SET "paid_pence" = "total_pence" WHERE "status" = 'paid';--> statement-breakpoint
WITH paid AS (
  SELECT "id", "trade_account_id", "total_pence", "number", coalesce(("paid_at" at time zone 'Europe/London')::date, "invoice_date") AS "on"
  FROM "trade_invoices" WHERE "status" = 'paid' AND "total_pence" > 0
), made AS (
  INSERT INTO "trade_payments" ("number", "trade_account_id", "amount_pence", "method", "reference", "received_on", "unallocated_pence")
  SELECT 'before-ledger-' || "id", "trade_account_id", "total_pence", 'bacs', 'Paid before the payment ledger: ' || "number", "on", 0 FROM paid
  RETURNING "id", "number"
)
INSERT INTO "trade_payment_allocations" ("payment_id", "invoice_id", "amount_pence")
SELECT made."id", paid."id", paid."total_pence" FROM made JOIN paid ON made."number" = 'before-ledger-' || paid."id";--> statement-breakpoint
UPDATE "trade_payments" SET "number" = 'PAY-' || lpad("id"::text, 6, '0') WHERE "number" LIKE 'before-ledger-%';
