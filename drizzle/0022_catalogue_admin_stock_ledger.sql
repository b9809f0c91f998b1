CREATE TABLE "product_slug_redirects" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"change" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"stock_after" integer NOT NULL,
	"staff_id" integer,
	"order_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_kind_check" CHECK ("stock_movements"."kind" in ('opening', 'received', 'counted', 'adjusted', 'sold', 'returned', 'cancelled')),
	CONSTRAINT "stock_movements_stock_after_check" CHECK ("stock_movements"."stock_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reorder_level" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_slug_redirects" ADD CONSTRAINT "product_slug_redirects_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_slug_redirects_product_idx" ON "product_slug_redirects" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "stock_movements_product_idx" ON "stock_movements" USING btree ("product_id","id");--> statement-breakpoint
CREATE INDEX "stock_movements_created_idx" ON "stock_movements" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_status_check" CHECK ("products"."status" in ('draft', 'published', 'archived'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reorder_level_check" CHECK ("products"."reorder_level" >= 0);--> statement-breakpoint
-- Only published products are listed: a draft or archived product leaves the
-- listing (and so its facets, searches and category pages) and a published one
-- comes back, through the same refresh the catalogue triggers call.
CREATE OR REPLACE FUNCTION "product_listing_refresh"(ids integer[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM product_listing l
  WHERE l.product_id = ANY(ids)
    AND NOT EXISTS (SELECT 1 FROM products p WHERE p.id = l.product_id AND p.status = 'published');
  WITH RECURSIVE ancestors(category_id, ancestor_id) AS (
    SELECT id, id FROM categories
    UNION ALL
    SELECT a.category_id, c.parent_id FROM ancestors a JOIN categories c ON c.id = a.ancestor_id WHERE c.parent_id IS NOT NULL
  ),
  cats AS (
    SELECT pc.product_id, array_agg(DISTINCT a.ancestor_id ORDER BY a.ancestor_id) AS category_ids
    FROM product_categories pc JOIN ancestors a ON a.category_id = pc.category_id
    WHERE pc.product_id = ANY(ids) GROUP BY pc.product_id
  ),
  attrs AS (
    SELECT pa.product_id, array_agg(pa.name || '=' || pa.value ORDER BY pa.name, pa.value) AS attribute_keys
    FROM product_attributes pa WHERE pa.product_id = ANY(ids) GROUP BY pa.product_id
  )
  INSERT INTO product_listing (product_id, category_ids, attribute_keys, manufacturer_id, price_pence, stock, featured, name, created_at)
  SELECT p.id, coalesce(c.category_ids, '{}'), coalesce(t.attribute_keys, '{}'),
         p.manufacturer_id, (p.price_pence * (100 + p.vat_rate) + 50) / 100, p.stock, p.featured, p.name, p.created_at
  FROM products p LEFT JOIN cats c ON c.product_id = p.id LEFT JOIN attrs t ON t.product_id = p.id
  WHERE p.id = ANY(ids) AND p.status = 'published'
  ON CONFLICT (product_id) DO UPDATE SET
    category_ids = excluded.category_ids, attribute_keys = excluded.attribute_keys, manufacturer_id = excluded.manufacturer_id,
    price_pence = excluded.price_pence, stock = excluded.stock, featured = excluded.featured, name = excluded.name, created_at = excluded.created_at
$$;
--> statement-breakpoint
-- As before, with the status among what sends a product through the full refresh.
CREATE OR REPLACE FUNCTION "product_listing_from_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE product_listing l SET stock = n.stock FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE l.product_id = n.id AND n.stock IS DISTINCT FROM o.stock
        AND (n.price_pence, n.vat_rate, n.manufacturer_id, n.featured, n.name, n.created_at, n.status) IS NOT DISTINCT FROM (o.price_pence, o.vat_rate, o.manufacturer_id, o.featured, o.name, o.created_at, o.status);
    PERFORM product_listing_refresh(array(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.price_pence, n.vat_rate, n.manufacturer_id, n.featured, n.name, n.created_at, n.status) IS DISTINCT FROM (o.price_pence, o.vat_rate, o.manufacturer_id, o.featured, o.name, o.created_at, o.status)));
  ELSE
    PERFORM product_listing_refresh(array(SELECT id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An old slug answering with a redirect is part of what the storefront shows.
CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON "product_slug_redirects" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON "product_slug_redirects" FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
-- The ledger begins with each product's stock as it stands.
INSERT INTO "stock_movements" ("product_id", "change", "kind", "reason", "stock_after")
SELECT "id", "stock", 'opening', 'Stock when the ledger began', "stock" FROM "products" WHERE "stock" <> 0;
