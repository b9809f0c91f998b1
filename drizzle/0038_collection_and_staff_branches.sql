ALTER TABLE "orders" ADD COLUMN "collect_ready_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collection_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collection_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "branch_ids" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "branches_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_transfers" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "transfer_days" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "hold_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
CREATE INDEX "stock_transfers_order_idx" ON "stock_transfers" USING btree ("order_id") WHERE "stock_transfers"."order_id" is not null;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_transfer_days_check" CHECK ("branches"."transfer_days" between 0 and 60 and "branches"."hold_days" between 1 and 60);