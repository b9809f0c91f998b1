-- The customers desk searches by any part of a name, an email or a trade
-- company's name (ilike '%…%'), and by a postcode or its outward code: trigram
-- indexes answer the first three without reading every customer, a btree the
-- postcode (equality and its 'LS1 %' prefix).
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin (("firstname" || ' ' || "lastname") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin (("email"::text) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "trade_accounts_company_name_trgm_idx" ON "trade_accounts" USING gin ("company_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "addresses_postcode_idx" ON "addresses" USING btree ("postcode" text_pattern_ops);
