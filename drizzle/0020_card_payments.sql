CREATE TABLE "payment_events" (
	"gateway" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"amount_pence" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"lines" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"source" text NOT NULL,
	"external_id" text,
	"staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_amount_positive" CHECK ("payment_refunds"."amount_pence" > 0),
	CONSTRAINT "payment_refunds_status" CHECK ("payment_refunds"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "payment_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"external_id" text NOT NULL,
	"purpose" text NOT NULL,
	"order_id" integer,
	"remittance_id" integer,
	"hire_request_id" integer,
	"amount_pence" integer NOT NULL,
	"currency" text DEFAULT 'gbp' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"url" text NOT NULL,
	"return_token_hash" text NOT NULL,
	"problem" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_sessions_purpose" CHECK ("payment_sessions"."purpose" in ('order', 'invoices', 'hire')),
	CONSTRAINT "payment_sessions_one_target" CHECK (("payment_sessions"."purpose" = 'order' and "payment_sessions"."order_id" is not null) or ("payment_sessions"."purpose" = 'invoices' and "payment_sessions"."remittance_id" is not null) or ("payment_sessions"."purpose" = 'hire' and "payment_sessions"."hire_request_id" is not null)),
	CONSTRAINT "payment_sessions_status" CHECK ("payment_sessions"."status" in ('open', 'paid', 'expired', 'failed', 'flagged')),
	CONSTRAINT "payment_sessions_amount_positive" CHECK ("payment_sessions"."amount_pence" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"gateway" text NOT NULL,
	"external_id" text NOT NULL,
	"amount_pence" integer NOT NULL,
	"currency" text NOT NULL,
	"refunded_pence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_refunded_within_amount" CHECK ("payments"."refunded_pence" >= 0 and "payments"."refunded_pence" <= "payments"."amount_pence"),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_pence" > 0)
);
--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_remittance_id_trade_remittances_id_fk" FOREIGN KEY ("remittance_id") REFERENCES "public"."trade_remittances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_hire_request_id_hire_requests_id_fk" FOREIGN KEY ("hire_request_id") REFERENCES "public"."hire_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_session_id_payment_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."payment_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_key" ON "payment_events" USING btree ("gateway","event_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_external_key" ON "payment_refunds" USING btree ("external_id") WHERE "payment_refunds"."external_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_sessions_external_key" ON "payment_sessions" USING btree ("gateway","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_sessions_return_key" ON "payment_sessions" USING btree ("return_token_hash");--> statement-breakpoint
CREATE INDEX "payment_sessions_order_idx" ON "payment_sessions" USING btree ("order_id") WHERE "payment_sessions"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_sessions_remittance_idx" ON "payment_sessions" USING btree ("remittance_id") WHERE "payment_sessions"."remittance_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_sessions_hire_idx" ON "payment_sessions" USING btree ("hire_request_id") WHERE "payment_sessions"."hire_request_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_sessions_open_idx" ON "payment_sessions" USING btree ("expires_at") WHERE "payment_sessions"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_session_key" ON "payments" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_external_key" ON "payments" USING btree ("gateway","external_id");