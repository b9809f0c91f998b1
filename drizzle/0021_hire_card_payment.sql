ALTER TABLE "hire_requests" ADD COLUMN "pay_token_hash" text;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD COLUMN "paid_pence" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "hire_requests_pay_token_key" ON "hire_requests" USING btree ("pay_token_hash") WHERE "hire_requests"."pay_token_hash" is not null;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_paid" CHECK (("hire_requests"."paid_at" is null) = ("hire_requests"."paid_pence" is null) and ("hire_requests"."paid_pence" is null or "hire_requests"."paid_pence" > 0));