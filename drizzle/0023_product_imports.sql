CREATE TABLE "product_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" integer,
	"file_name" text NOT NULL,
	"stored_path" text DEFAULT '' NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"dry_run" boolean NOT NULL,
	"valid_only" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"report" jsonb,
	"error" text DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_imports_state_check" CHECK ("product_imports"."state" in ('queued', 'checking', 'running', 'done', 'refused', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "product_imports" ADD CONSTRAINT "product_imports_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_imports_created_idx" ON "product_imports" USING btree ("created_at","id");