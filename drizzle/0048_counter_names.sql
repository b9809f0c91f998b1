CREATE TABLE "order_drafts" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" integer,
	"user_id" integer,
	"label" text DEFAULT '' NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "bin_location" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "staff_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "created_by_staff_id" integer;--> statement-breakpoint
ALTER TABLE "order_addresses" ADD COLUMN "company" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "created_by_staff_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_reference" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_amount" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_on" date;--> statement-breakpoint
ALTER TABLE "order_drafts" ADD CONSTRAINT "order_drafts_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_drafts" ADD CONSTRAINT "order_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_drafts_updated_idx" ON "order_drafts" USING btree ("updated_at","id");--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_created_by_staff_id_staff_id_fk" FOREIGN KEY ("created_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_created_by_staff_id_staff_id_fk" FOREIGN KEY ("created_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Orders placed before checkout asked for a name: the delivery address's name, else the account holder's (orders/names.ts shows the email when both are empty).
UPDATE "orders" o SET "customer_name" = a."name" FROM "order_addresses" a WHERE a."order_id" = o."id" AND a."kind" = 'delivery' AND btrim(a."name") <> '';--> statement-breakpoint
UPDATE "orders" o SET "customer_name" = btrim(u."firstname" || ' ' || u."lastname") FROM "users" u WHERE o."user_id" = u."id" AND o."customer_name" = '';
