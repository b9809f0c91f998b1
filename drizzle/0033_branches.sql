CREATE TABLE "postcode_locations" (
	"postcode" text PRIMARY KEY NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "branches" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"line_1" text NOT NULL,
	"line_2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"postcode" text NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"services" text[] DEFAULT '{}'::text[] NOT NULL,
	"opening_hours" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"hours_exceptions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"collect_lead_minutes" integer DEFAULT 60 NOT NULL,
	"collect_cutoff_minutes" integer DEFAULT 30 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "branches_status_check" CHECK ("branches"."status" in ('open', 'closed')),
	CONSTRAINT "branches_lead_check" CHECK ("branches"."collect_lead_minutes" between 0 and 10080 and "branches"."collect_cutoff_minutes" between 0 and 1440)
);
--> statement-breakpoint
CREATE INDEX "postcode_locations_prefix_idx" ON "postcode_locations" USING btree ("postcode" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "branches_slug_key" ON "branches" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "branches_default_key" ON "branches" USING btree ("is_default") WHERE "branches"."is_default";--> statement-breakpoint
CREATE INDEX "branches_position_idx" ON "branches" USING btree ("position","id");