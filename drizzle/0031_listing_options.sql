ALTER TABLE "product_listing" ADD COLUMN "option_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "product_listing_option_keys_idx" ON "product_listing" USING gin ("option_keys");--> statement-breakpoint
CREATE INDEX "product_listing_with_options_idx" ON "product_listing" USING btree ("product_id") WHERE "product_listing"."option_keys" <> '{}'::text[];--> statement-breakpoint
-- Option values in the listing (issue 29): a product lists each value one of
-- its active variants has, as `Name=Value`, so a listing filters and counts by
-- option values as it does by attributes.
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
  ),
  opts AS (
    SELECT v.product_id, array_agg(DISTINCT e.key || '=' || e.value ORDER BY e.key || '=' || e.value) AS option_keys
    FROM product_variants v CROSS JOIN LATERAL jsonb_each_text(v.options) e
    WHERE v.product_id = ANY(ids) AND v.status = 'active' GROUP BY v.product_id
  )
  INSERT INTO product_listing (product_id, category_ids, attribute_keys, option_keys, manufacturer_id, price_pence, stock, featured, name, created_at)
  SELECT p.id, coalesce(c.category_ids, '{}'), coalesce(t.attribute_keys, '{}'), coalesce(o.option_keys, '{}'),
         p.manufacturer_id, (p.price_pence * (100 + p.vat_rate) + 50) / 100, p.stock, p.featured, p.name, p.created_at
  FROM products p LEFT JOIN cats c ON c.product_id = p.id LEFT JOIN attrs t ON t.product_id = p.id LEFT JOIN opts o ON o.product_id = p.id
  WHERE p.id = ANY(ids) AND p.status = 'published'
  ON CONFLICT (product_id) DO UPDATE SET
    category_ids = excluded.category_ids, attribute_keys = excluded.attribute_keys, option_keys = excluded.option_keys, manufacturer_id = excluded.manufacturer_id,
    price_pence = excluded.price_pence, stock = excluded.stock, featured = excluded.featured, name = excluded.name, created_at = excluded.created_at
$$;
--> statement-breakpoint
-- A variant's options or state changed, or a variant with options came or
-- went: its product's listing row is made again. A stock sale touches neither,
-- and a plain product's one variant (options {}) never calls it.
CREATE FUNCTION "product_listing_from_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM product_listing_refresh(array(SELECT DISTINCT product_id FROM new_rows WHERE options <> '{}'::jsonb));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM product_listing_refresh(array(SELECT DISTINCT product_id FROM old_rows WHERE options <> '{}'::jsonb));
  ELSE
    PERFORM product_listing_refresh(array(
      SELECT DISTINCT n.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.options, n.status) IS DISTINCT FROM (o.options, o.status)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_listing_variants_insert" AFTER INSERT ON "product_variants" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_variants();
--> statement-breakpoint
CREATE TRIGGER "product_listing_variants_update" AFTER UPDATE ON "product_variants" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_variants();
--> statement-breakpoint
CREATE TRIGGER "product_listing_variants_delete" AFTER DELETE ON "product_variants" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_variants();
--> statement-breakpoint
SELECT product_listing_refresh(array(SELECT DISTINCT product_id FROM product_variants WHERE options <> '{}'::jsonb));
