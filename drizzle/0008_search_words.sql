CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- Fill the dictionary from any catalogue that already exists.
INSERT INTO "search_words" ("word")
SELECT DISTINCT w FROM "products", regexp_split_to_table(lower("name" || ' ' || "search_text"), '[^a-z0-9]+') AS w
WHERE length(w) >= 2
ON CONFLICT DO NOTHING;
