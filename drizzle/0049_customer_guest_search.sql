-- The customers desk finds guest buyers (issue 34) by any part of the email
-- or the name on their orders, or their phone's digits; and registered
-- customers by their phone's digits. Trigram indexes answer '%…%' without
-- reading every order; the guests' are partial (orders without an account).
CREATE INDEX IF NOT EXISTS "orders_guest_email_trgm_idx" ON "orders" USING gin ((lower("email")) gin_trgm_ops) WHERE "user_id" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_guest_name_trgm_idx" ON "orders" USING gin ("customer_name" gin_trgm_ops) WHERE "user_id" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_guest_phone_trgm_idx" ON "orders" USING gin ((regexp_replace("phone", '[^0-9]', '', 'g')) gin_trgm_ops) WHERE "user_id" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_addresses_company_trgm_idx" ON "order_addresses" USING gin ("company" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_phone_trgm_idx" ON "users" USING gin ((regexp_replace("phone", '[^0-9]', '', 'g')) gin_trgm_ops);
