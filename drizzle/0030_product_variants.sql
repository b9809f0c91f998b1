-- Variants (ADR 0046): the variant is what is sold. Every existing product
-- becomes one variant with its SKU, price and stock, and every basket line,
-- order line and stock movement is pointed at it, so nothing a shop holds
-- changes meaning.
CREATE TABLE "product_options" (
	"product_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"values" text[] NOT NULL,
	CONSTRAINT "product_options_product_id_position_pk" PRIMARY KEY("product_id","position"),
	CONSTRAINT "product_options_position_check" CHECK ("product_options"."position" between 0 and 2)
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"price_pence" integer NOT NULL,
	"was_price_pence" integer,
	"stock" integer DEFAULT 0 NOT NULL,
	"reorder_level" integer DEFAULT 5 NOT NULL,
	"weight_grams" integer,
	"barcode" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_price_check" CHECK ("product_variants"."price_pence" >= 0),
	CONSTRAINT "product_variants_stock_check" CHECK ("product_variants"."stock" >= 0),
	CONSTRAINT "product_variants_reorder_level_check" CHECK ("product_variants"."reorder_level" >= 0),
	CONSTRAINT "product_variants_weight_check" CHECK ("product_variants"."weight_grams" is null or "product_variants"."weight_grams" >= 0),
	CONSTRAINT "product_variants_status_check" CHECK ("product_variants"."status" in ('active', 'archived'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "unit" text DEFAULT 'each' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "coverage_per_unit" numeric(12, 3);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "coverage_unit" text;--> statement-breakpoint
-- Each product's one variant, with what the product held.
INSERT INTO "product_variants" ("product_id", "sku", "price_pence", "was_price_pence", "stock", "reorder_level", "created_at", "updated_at")
SELECT "id", "sku", "price_pence", "was_price_pence", "stock", "reorder_level", "created_at", "updated_at" FROM "products" ORDER BY "id";--> statement-breakpoint
ALTER TABLE "basket_items" ADD COLUMN "variant_id" integer;--> statement-breakpoint
UPDATE "basket_items" b SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = b."product_id";--> statement-breakpoint
ALTER TABLE "basket_items" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "options" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "unit" text DEFAULT 'each' NOT NULL;--> statement-breakpoint
UPDATE "order_lines" l SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = l."product_id";--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "variant_id" integer;--> statement-breakpoint
UPDATE "stock_movements" m SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = m."product_id";--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
DROP INDEX "basket_items_basket_product_key";--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_name_key" ON "product_options" USING btree ("product_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_key" ON "product_variants" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "product_variants_sku_lower_idx" ON "product_variants" USING btree (lower("sku"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_barcode_key" ON "product_variants" USING btree ("barcode") WHERE "product_variants"."barcode" is not null;--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_options_key" ON "product_variants" USING btree ("product_id","options") WHERE "product_variants"."status" = 'active';--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "basket_items_basket_variant_key" ON "basket_items" USING btree ("basket_id","variant_id");--> statement-breakpoint
CREATE INDEX "stock_movements_variant_idx" ON "stock_movements" USING btree ("variant_id","id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_unit_check" CHECK ("products"."unit" in ('each', 'm', 'm2', 'pack', 'kg', 'tonne', 'litre'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_coverage_check" CHECK (("products"."coverage_per_unit" is null) = ("products"."coverage_unit" is null) and ("products"."coverage_per_unit" is null or "products"."coverage_per_unit" > 0));--> statement-breakpoint
-- A product's summary of its active variants: the first one's SKU and
-- reorder level, the cheapest one's prices ("from £x"), and their total stock. The listing
-- triggers on products carry it on to product_listing and its facets.
CREATE FUNCTION "product_summary_refresh"(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Locked in id order, so writers to several products never deadlock here.
  PERFORM 1 FROM products WHERE id = ANY(ids) ORDER BY id FOR UPDATE;
  UPDATE products p SET sku = s.sku, price_pence = s.price_pence, was_price_pence = s.was_price_pence, stock = s.stock, reorder_level = s.reorder_level, updated_at = now()
  FROM (
    SELECT v.product_id,
           (array_agg(v.sku ORDER BY v.position, v.id))[1] AS sku,
           (array_agg(v.reorder_level ORDER BY v.position, v.id))[1] AS reorder_level,
           (array_agg(v.price_pence ORDER BY v.price_pence, v.position, v.id))[1] AS price_pence,
           (array_agg(v.was_price_pence ORDER BY v.price_pence, v.position, v.id))[1] AS was_price_pence,
           sum(v.stock)::int AS stock
    FROM product_variants v
    WHERE v.product_id = ANY(ids) AND v.status = 'active'
    GROUP BY v.product_id
  ) s
  WHERE p.id = s.product_id
    AND (p.sku, p.price_pence, p.was_price_pence, p.stock, p.reorder_level) IS DISTINCT FROM (s.sku, s.price_pence, s.was_price_pence, s.stock, s.reorder_level);
END $$;
--> statement-breakpoint
CREATE FUNCTION "product_summary_from_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM product_summary_refresh(array(SELECT DISTINCT product_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM product_summary_refresh(array(SELECT DISTINCT product_id FROM old_rows));
  ELSE
    PERFORM product_summary_refresh(array(
      SELECT DISTINCT n.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.product_id, n.sku, n.price_pence, n.was_price_pence, n.stock, n.reorder_level, n.position, n.status)
            IS DISTINCT FROM (o.product_id, o.sku, o.price_pence, o.was_price_pence, o.stock, o.reorder_level, o.position, o.status)
      UNION SELECT o.product_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.product_id <> o.product_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_summary_variants_insert" AFTER INSERT ON "product_variants" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_summary_from_variants();
--> statement-breakpoint
CREATE TRIGGER "product_summary_variants_update" AFTER UPDATE ON "product_variants" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_summary_from_variants();
--> statement-breakpoint
CREATE TRIGGER "product_summary_variants_delete" AFTER DELETE ON "product_variants" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_summary_from_variants();
--> statement-breakpoint
-- Variant and option changes show on the cached pages (ADR 0025).
CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON "product_variants" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON "product_variants" FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON "product_options" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON "product_options" FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
-- Every product has a variant from the moment it exists: a new product comes
-- with one made from its own SKU, prices and stock, which an options editor
-- may then replace. So no code path, seed or import finds a product with none.
CREATE FUNCTION "product_variants_for_new_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_variants (product_id, sku, price_pence, was_price_pence, stock, reorder_level, created_at, updated_at)
  SELECT n.id, n.sku, n.price_pence, n.was_price_pence, n.stock, n.reorder_level, n.created_at, n.updated_at FROM new_rows n ORDER BY n.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_variants_products_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_variants_for_new_products();
--> statement-breakpoint
-- Older tools and scripts that write a product's own SKU, prices, stock or
-- reorder level directly keep working for a product with one variant: the
-- write goes on to that variant. For a product with several the figures are
-- the variants' to change, and such a write is refused. The summary's own
-- writes (from a trigger, depth above 1) pass through untouched.
CREATE FUNCTION "product_variants_from_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF EXISTS (
    SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.sku, n.price_pence, n.was_price_pence, n.stock, n.reorder_level) IS DISTINCT FROM (o.sku, o.price_pence, o.was_price_pence, o.stock, o.reorder_level)
      AND (SELECT count(*) FROM product_variants w WHERE w.product_id = n.id AND w.status = 'active') > 1
  ) THEN
    RAISE EXCEPTION 'A product with several variants has its SKU, prices, stock and reorder level changed on each variant'
      USING ERRCODE = 'check_violation';
  END IF;
  UPDATE product_variants v
  SET sku = n.sku, price_pence = n.price_pence, was_price_pence = n.was_price_pence, stock = n.stock, reorder_level = n.reorder_level, updated_at = now()
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE v.product_id = n.id AND v.status = 'active'
    AND (n.sku, n.price_pence, n.was_price_pence, n.stock, n.reorder_level) IS DISTINCT FROM (o.sku, o.price_pence, o.was_price_pence, o.stock, o.reorder_level)
    AND (v.sku, v.price_pence, v.was_price_pence, v.stock, v.reorder_level) IS DISTINCT FROM (n.sku, n.price_pence, n.was_price_pence, n.stock, n.reorder_level);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_variants_products_update" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_variants_from_products();
