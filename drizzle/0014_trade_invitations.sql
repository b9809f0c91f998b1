CREATE TABLE "trade_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"trade_account_id" integer NOT NULL,
	"email" "citext" NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_invitations_role" CHECK ("trade_invitations"."role" in ('owner', 'admin', 'buyer', 'accounts'))
);
--> statement-breakpoint
ALTER TABLE "trade_invitations" ADD CONSTRAINT "trade_invitations_trade_account_id_trade_accounts_id_fk" FOREIGN KEY ("trade_account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_invitations" ADD CONSTRAINT "trade_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_invitations" ADD CONSTRAINT "trade_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_invitations_account_idx" ON "trade_invitations" USING btree ("trade_account_id");