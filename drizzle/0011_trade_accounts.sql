CREATE TABLE "trade_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"company_type" text NOT NULL,
	"company_number" text,
	"vat_number" text,
	"trade" text NOT NULL,
	"line1" text NOT NULL,
	"line2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"postcode" text NOT NULL,
	"phone" text NOT NULL,
	"accounts_email" text NOT NULL,
	"expected_monthly_spend_pence" integer NOT NULL,
	"requested_credit_limit_pence" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"credit_limit_pence" integer DEFAULT 0 NOT NULL,
	"terms_days" integer DEFAULT 0 NOT NULL,
	"discount_basis_points" integer DEFAULT 0 NOT NULL,
	"po_required" boolean DEFAULT false NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_accounts_state" CHECK ("trade_accounts"."state" in ('pending', 'approved', 'declined', 'suspended')),
	CONSTRAINT "trade_accounts_company_type" CHECK ("trade_accounts"."company_type" in ('sole_trader', 'partnership', 'limited_company')),
	CONSTRAINT "trade_accounts_discount_range" CHECK ("trade_accounts"."discount_basis_points" between 0 and 10000),
	CONSTRAINT "trade_accounts_credit_limit_positive" CHECK ("trade_accounts"."credit_limit_pence" >= 0),
	CONSTRAINT "trade_accounts_terms_range" CHECK ("trade_accounts"."terms_days" between 0 and 365),
	CONSTRAINT "trade_accounts_company_number" CHECK ("trade_accounts"."company_type" <> 'limited_company' or "trade_accounts"."company_number" is not null)
);
--> statement-breakpoint
CREATE TABLE "trade_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"trade_account_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"prices_inc_vat" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_members_role" CHECK ("trade_members"."role" in ('owner', 'admin', 'buyer', 'accounts'))
);
--> statement-breakpoint
ALTER TABLE "trade_members" ADD CONSTRAINT "trade_members_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_members" ADD CONSTRAINT "trade_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trade_members_user_key" ON "trade_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trade_members_account_idx" ON "trade_members" USING btree ("trade_account_id");