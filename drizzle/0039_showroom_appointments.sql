CREATE TABLE "appointments" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"seat" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"topic" text DEFAULT 'both' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'booked' NOT NULL,
	"token_hash" text NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('booked', 'cancelled')),
	CONSTRAINT "appointments_topic_check" CHECK ("appointments"."topic" in ('kitchen', 'bathroom', 'both')),
	CONSTRAINT "appointments_times_check" CHECK ("appointments"."ends_at" > "appointments"."starts_at" and "appointments"."seat" >= 1)
);
--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "appointment_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "appointment_designers" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_seat_key" ON "appointments" USING btree ("branch_id","starts_at","seat") WHERE "appointments"."status" = 'booked';--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_token_key" ON "appointments" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "appointments_branch_day_idx" ON "appointments" USING btree ("branch_id","starts_at");--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_appointments_check" CHECK ("branches"."appointment_minutes" between 15 and 480 and "branches"."appointment_designers" between 1 and 20);