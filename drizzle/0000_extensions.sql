-- Extensions the shop relies on: fuzzy search (pg_trgm), exclusion constraints
-- over unit and date range for hire (btree_gist), case-insensitive emails (citext).
-- PGlite loads them at construction; PostgreSQL ships them in contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS citext;
