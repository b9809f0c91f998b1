CREATE TABLE "redirect_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_path" text NOT NULL,
	"match" text DEFAULT 'exact' NOT NULL,
	"to_target" text NOT NULL,
	"status" integer DEFAULT 301 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redirect_rules_match_check" CHECK ("redirect_rules"."match" in ('exact', 'prefix')),
	CONSTRAINT "redirect_rules_status_check" CHECK ("redirect_rules"."status" in (301, 302, 307, 308))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "redirect_rules_from_key" ON "redirect_rules" USING btree ("from_path","match");