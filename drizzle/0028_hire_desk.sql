CREATE TABLE "hire_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"handover_id" integer,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"net_pence" integer NOT NULL,
	"vat_rate" integer NOT NULL,
	"vat_pence" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hire_charges_kind" CHECK ("hire_charges"."kind" in ('hire', 'late', 'damage', 'cleaning', 'other', 'deposit')),
	CONSTRAINT "hire_charges_sign" CHECK (("hire_charges"."kind" = 'deposit' and "hire_charges"."net_pence" <= 0 and "hire_charges"."vat_pence" = 0) or ("hire_charges"."kind" <> 'deposit' and "hire_charges"."net_pence" >= 0 and "hire_charges"."vat_pence" >= 0)),
	CONSTRAINT "hire_charges_reason" CHECK ("hire_charges"."kind" not in ('damage', 'cleaning', 'other') or "hire_charges"."reason" <> '')
);
--> statement-breakpoint
CREATE TABLE "hire_handovers" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"request_line_id" integer NOT NULL,
	"allocation_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"agreement_number" text NOT NULL,
	"agreement_token_hash" text NOT NULL,
	"handed_over_on" date NOT NULL,
	"handed_over_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handed_over_by" integer,
	"condition_out" text NOT NULL,
	"accessories" text DEFAULT '' NOT NULL,
	"id_checked" boolean NOT NULL,
	"id_type" text DEFAULT '' NOT NULL,
	"off_hire_on" date,
	"off_hire_reference" text,
	"off_hire_note" text DEFAULT '' NOT NULL,
	"off_hired_at" timestamp with time zone,
	"off_hired_by" integer,
	"returned_on" date,
	"returned_at" timestamp with time zone,
	"returned_by" integer,
	"condition_in" text DEFAULT '' NOT NULL,
	CONSTRAINT "hire_handovers_off_hire" CHECK (("hire_handovers"."off_hire_on" is null) = ("hire_handovers"."off_hire_reference" is null)),
	CONSTRAINT "hire_handovers_returned" CHECK (("hire_handovers"."returned_on" is null) = ("hire_handovers"."returned_at" is null))
);
--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "decision_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "proposed_start_date" date;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "proposed_end_date" date;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "final_total_pence" integer;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "settlement" text;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "settlement_due_pence" integer;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "settlement_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hire_charges" ADD CONSTRAINT "hire_charges_request_id_hire_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."hire_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_charges" ADD CONSTRAINT "hire_charges_handover_id_hire_handovers_id_fk" FOREIGN KEY ("handover_id") REFERENCES "public"."hire_handovers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_charges" ADD CONSTRAINT "hire_charges_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_request_id_hire_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."hire_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_request_line_id_hire_request_lines_id_fk" FOREIGN KEY ("request_line_id") REFERENCES "public"."hire_request_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_allocation_id_hire_allocations_id_fk" FOREIGN KEY ("allocation_id") REFERENCES "public"."hire_allocations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_unit_id_hire_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."hire_units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_handed_over_by_staff_id_fk" FOREIGN KEY ("handed_over_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_off_hired_by_staff_id_fk" FOREIGN KEY ("off_hired_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_handovers" ADD CONSTRAINT "hire_handovers_returned_by_staff_id_fk" FOREIGN KEY ("returned_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hire_charges_request_idx" ON "hire_charges" USING btree ("request_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_handovers_allocation_key" ON "hire_handovers" USING btree ("allocation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_handovers_agreement_key" ON "hire_handovers" USING btree ("agreement_number");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_handovers_agreement_token_key" ON "hire_handovers" USING btree ("agreement_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_handovers_off_hire_key" ON "hire_handovers" USING btree ("off_hire_reference") WHERE "hire_handovers"."off_hire_reference" is not null;--> statement-breakpoint
CREATE INDEX "hire_handovers_request_idx" ON "hire_handovers" USING btree ("request_id");--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_settlement" CHECK ("hire_requests"."settlement" is null or "hire_requests"."settlement" in ('account', 'card', 'arranged'));--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_proposed" CHECK (("hire_requests"."proposed_start_date" is null) = ("hire_requests"."proposed_end_date" is null));