CREATE TABLE "quote_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"status" text NOT NULL,
	"by" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"unit" text DEFAULT 'each' NOT NULL,
	"quantity" integer NOT NULL,
	"base_price" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"vat_rate" integer NOT NULL,
	CONSTRAINT "quote_lines_quantity_check" CHECK ("quote_lines"."quantity" > 0),
	CONSTRAINT "quote_lines_price_check" CHECK ("quote_lines"."unit_price" >= 0 and "quote_lines"."base_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quote_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text GENERATED ALWAYS AS ('Q-' || lpad(id::text, 6, '0')) STORED NOT NULL,
	"status" text NOT NULL,
	"user_id" integer NOT NULL,
	"trade_account_id" integer,
	"revision" integer DEFAULT 1 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"needed_by" date,
	"valid_until" date,
	"terms" text DEFAULT '' NOT NULL,
	"delivery_ex_vat" integer,
	"order_id" integer,
	"decline_reason" text DEFAULT '' NOT NULL,
	"created_by_staff_id" integer,
	"sent_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_status_check" CHECK ("quotes"."status" in ('requested', 'drafting', 'sent', 'accepted', 'declined', 'expired')),
	CONSTRAINT "quotes_delivery_check" CHECK ("quotes"."delivery_ex_vat" is null or "quotes"."delivery_ex_vat" >= 0),
	CONSTRAINT "quotes_accepted_check" CHECK (("quotes"."status" = 'accepted') = ("quotes"."order_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "quote_events" ADD CONSTRAINT "quote_events_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_revisions" ADD CONSTRAINT "quote_revisions_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_created_by_staff_id_staff_id_fk" FOREIGN KEY ("created_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_events_quote_idx" ON "quote_events" USING btree ("quote_id","id");--> statement-breakpoint
CREATE INDEX "quote_lines_quote_idx" ON "quote_lines" USING btree ("quote_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "quote_revisions_key" ON "quote_revisions" USING btree ("quote_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_number_key" ON "quotes" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_order_key" ON "quotes" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "quotes_status_idx" ON "quotes" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "quotes_user_idx" ON "quotes" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "quotes_trade_account_idx" ON "quotes" USING btree ("trade_account_id","id") WHERE "quotes"."trade_account_id" is not null;--> statement-breakpoint
CREATE INDEX "quotes_sent_valid_idx" ON "quotes" USING btree ("valid_until") WHERE "quotes"."status" = 'sent';--> statement-breakpoint
-- A quote whose order goes before it was paid (a card payment page that expired, failed or was left,
-- or never opened: the order withdrawn) is open to accept again: still sent, until its last day (issue 32).
CREATE FUNCTION quotes_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.status := 'sent';
  NEW.accepted_at := NULL;
  NEW.updated_at := now();
  INSERT INTO quote_events (quote_id, status, by, note) VALUES (NEW.id, 'sent', 'system', 'The order was not paid, so the quote is open to accept again.');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER quotes_reopen BEFORE UPDATE OF order_id ON quotes FOR EACH ROW
  WHEN (OLD.order_id IS NOT NULL AND NEW.order_id IS NULL AND NEW.status = 'accepted') EXECUTE FUNCTION quotes_reopen();--> statement-breakpoint
CREATE FUNCTION orders_reopen_quote() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE quotes SET order_id = NULL WHERE order_id = NEW.id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_reopen_quote AFTER UPDATE OF status ON orders FOR EACH ROW
  WHEN (NEW.status = 'cancelled' AND OLD.status = 'awaiting_payment' AND NEW.payment_method = 'card') EXECUTE FUNCTION orders_reopen_quote();
