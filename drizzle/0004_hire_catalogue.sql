CREATE TABLE "hire_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"unit_id" integer NOT NULL,
	"request_line_id" integer,
	"kind" text NOT NULL,
	"period" daterange NOT NULL,
	"expires_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hire_allocations_kind_check" CHECK ("hire_allocations"."kind" in ('hold', 'booking'))
);
--> statement-breakpoint
CREATE TABLE "hire_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hire_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"hire_category_id" integer NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"specifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"product_id" integer,
	"day_rate" integer NOT NULL,
	"weekend_rate" integer NOT NULL,
	"week_rate" integer NOT NULL,
	"deposit" integer DEFAULT 0 NOT NULL,
	"vat_rate" integer DEFAULT 20 NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hire_items_rates_check" CHECK ("hire_items"."day_rate" >= 0 and "hire_items"."weekend_rate" >= 0 and "hire_items"."week_rate" >= 0 and "hire_items"."deposit" >= 0)
);
--> statement-breakpoint
CREATE TABLE "hire_units" (
	"id" serial PRIMARY KEY NOT NULL,
	"hire_item_id" integer NOT NULL,
	"asset_number" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hire_allocations" ADD CONSTRAINT "hire_allocations_unit_id_hire_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."hire_units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_items" ADD CONSTRAINT "hire_items_hire_category_id_hire_categories_id_fk" FOREIGN KEY ("hire_category_id") REFERENCES "public"."hire_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_items" ADD CONSTRAINT "hire_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_units" ADD CONSTRAINT "hire_units_hire_item_id_hire_items_id_fk" FOREIGN KEY ("hire_item_id") REFERENCES "public"."hire_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hire_allocations_unit_idx" ON "hire_allocations" USING btree ("unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_categories_slug_key" ON "hire_categories" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_items_slug_key" ON "hire_items" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "hire_items_category_idx" ON "hire_items" USING btree ("hire_category_id","name");--> statement-breakpoint
CREATE INDEX "hire_items_search_idx" ON "hire_items" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "hire_items_name_trgm_idx" ON "hire_items" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "hire_units_asset_key" ON "hire_units" USING btree ("asset_number");--> statement-breakpoint
CREATE INDEX "hire_units_item_idx" ON "hire_units" USING btree ("hire_item_id");--> statement-breakpoint
-- No unit can be taken twice for overlapping dates: held or booked, live allocations exclude each other.
ALTER TABLE "hire_allocations" ADD CONSTRAINT "hire_allocations_no_overlap" EXCLUDE USING gist ("unit_id" WITH =, "period" WITH &&) WHERE ("released_at" IS NULL);
