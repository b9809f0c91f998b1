CREATE TABLE "listing_facets" (
	"category_id" integer NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "listing_facets_category_id_key_pk" PRIMARY KEY("category_id","key")
);
--> statement-breakpoint
CREATE TABLE "product_listing" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"attribute_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"manufacturer_id" integer,
	"price_pence" integer NOT NULL,
	"stock" integer NOT NULL,
	"featured" boolean NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_listing" ADD CONSTRAINT "product_listing_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_listing_category_ids_idx" ON "product_listing" USING gin ("category_ids");--> statement-breakpoint
CREATE INDEX "product_listing_attribute_keys_idx" ON "product_listing" USING gin ("attribute_keys");--> statement-breakpoint
CREATE INDEX "product_listing_manufacturer_idx" ON "product_listing" USING btree ("manufacturer_id");--> statement-breakpoint
CREATE INDEX "product_listing_price_idx" ON "product_listing" USING btree ("price_pence","product_id");--> statement-breakpoint
CREATE INDEX "product_listing_created_idx" ON "product_listing" USING btree ("created_at","product_id");--> statement-breakpoint
CREATE INDEX "product_listing_name_idx" ON "product_listing" USING btree ("name","product_id");
--> statement-breakpoint
-- Rebuilds the listing rows of the given products from the catalogue tables.
CREATE FUNCTION "product_listing_refresh"(ids integer[]) RETURNS void LANGUAGE sql AS $$
  -- Set-based joins, not a subquery per product: a bulk insert (the scale seed)
  -- runs before statistics exist and a per-row plan would go quadratic.
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
  WHERE p.id = ANY(ids)
  ON CONFLICT (product_id) DO UPDATE SET
    category_ids = excluded.category_ids, attribute_keys = excluded.attribute_keys, manufacturer_id = excluded.manufacturer_id,
    price_pence = excluded.price_pence, stock = excluded.stock, featured = excluded.featured, name = excluded.name, created_at = excluded.created_at
$$;
--> statement-breakpoint
-- A stock change (every checkout) touches only the stock, without the category walk.
CREATE FUNCTION "product_listing_from_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE product_listing l SET stock = n.stock FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE l.product_id = n.id AND n.stock IS DISTINCT FROM o.stock
        AND (n.price_pence, n.vat_rate, n.manufacturer_id, n.featured, n.name, n.created_at) IS NOT DISTINCT FROM (o.price_pence, o.vat_rate, o.manufacturer_id, o.featured, o.name, o.created_at);
    PERFORM product_listing_refresh(array(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.price_pence, n.vat_rate, n.manufacturer_id, n.featured, n.name, n.created_at) IS DISTINCT FROM (o.price_pence, o.vat_rate, o.manufacturer_id, o.featured, o.name, o.created_at)));
  ELSE
    PERFORM product_listing_refresh(array(SELECT id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "product_listing_from_links"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM product_listing_refresh(array(SELECT DISTINCT product_id FROM old_rows));
  ELSE
    PERFORM product_listing_refresh(array(SELECT DISTINCT product_id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A category moved under another parent changes the ancestors of its products.
CREATE FUNCTION "product_listing_from_categories"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_listing_refresh(array(
    SELECT l.product_id FROM product_listing l WHERE l.category_ids && array(SELECT id FROM new_rows)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_listing_products_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_products();
--> statement-breakpoint
CREATE TRIGGER "product_listing_products_update" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_products();
--> statement-breakpoint
CREATE TRIGGER "product_listing_categories_insert" AFTER INSERT ON "product_categories" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_links();
--> statement-breakpoint
CREATE TRIGGER "product_listing_categories_update" AFTER UPDATE ON "product_categories" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_links();
--> statement-breakpoint
CREATE TRIGGER "product_listing_categories_delete" AFTER DELETE ON "product_categories" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_links();
--> statement-breakpoint
CREATE TRIGGER "product_listing_attributes_insert" AFTER INSERT ON "product_attributes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_links();
--> statement-breakpoint
CREATE TRIGGER "product_listing_attributes_update" AFTER UPDATE ON "product_attributes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_links();
--> statement-breakpoint
CREATE TRIGGER "product_listing_attributes_delete" AFTER DELETE ON "product_attributes" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_links();
--> statement-breakpoint
CREATE TRIGGER "product_listing_category_tree" AFTER UPDATE ON "categories" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_categories();
--> statement-breakpoint
-- The facet keys one listing row counts towards, in every one of its categories
-- and in 0 (all): `t`, `m:`, `a:` over all products, and `s`, `sm:`, `sa:` over
-- those in stock, so "in stock only" reads its counts too.
CREATE FUNCTION "listing_facet_keys"(r product_listing) RETURNS TABLE(category_id integer, key text) LANGUAGE sql IMMUTABLE AS $$
  SELECT c, k
  FROM unnest(r.category_ids || 0) AS c,
       LATERAL (SELECT array(SELECT 'a:' || x FROM unnest(r.attribute_keys) x)
                       || CASE WHEN r.manufacturer_id IS NULL THEN '{}'::text[] ELSE array['m:' || r.manufacturer_id] END AS own) o,
       unnest(array['t'] || o.own
              || CASE WHEN r.stock > 0 THEN array['s'] || array(SELECT 's' || y FROM unnest(o.own) y) ELSE '{}'::text[] END) AS k
$$;
--> statement-breakpoint
-- Applies the net change of rows leaving (-1) and arriving (+1). Rows are
-- upserted in key order so concurrent writers take their locks in one order.
-- A stock change that keeps a product in (or out of) stock changes nothing here.
CREATE FUNCTION "listing_facets_apply"(leaving product_listing[], arriving product_listing[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO listing_facets (category_id, key, count)
  SELECT f.category_id, f.key, sum(d.sign)::int
  FROM (SELECT r, -1 AS sign FROM unnest(leaving) r UNION ALL SELECT r, 1 FROM unnest(arriving) r) d,
       LATERAL listing_facet_keys(d.r) f
  GROUP BY f.category_id, f.key
  HAVING sum(d.sign) <> 0
  ORDER BY f.category_id, f.key
  ON CONFLICT (category_id, key) DO UPDATE SET count = listing_facets.count + excluded.count
$$;
--> statement-breakpoint
CREATE FUNCTION "listing_facets_from_listing"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM listing_facets_apply('{}'::product_listing[], array(SELECT n::product_listing FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM listing_facets_apply(array(SELECT o::product_listing FROM old_rows o), '{}'::product_listing[]);
  ELSE
    -- Only rows whose facets moved: a sale that leaves stock above zero costs one join.
    PERFORM listing_facets_apply(
      array(SELECT o::product_listing FROM old_rows o JOIN new_rows n ON n.product_id = o.product_id
            WHERE (o.category_ids, o.attribute_keys, o.manufacturer_id, o.stock > 0) IS DISTINCT FROM (n.category_ids, n.attribute_keys, n.manufacturer_id, n.stock > 0)),
      array(SELECT n::product_listing FROM old_rows o JOIN new_rows n ON n.product_id = o.product_id
            WHERE (o.category_ids, o.attribute_keys, o.manufacturer_id, o.stock > 0) IS DISTINCT FROM (n.category_ids, n.attribute_keys, n.manufacturer_id, n.stock > 0)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "listing_facets_insert" AFTER INSERT ON "product_listing" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_facets_from_listing();
--> statement-breakpoint
CREATE TRIGGER "listing_facets_update" AFTER UPDATE ON "product_listing" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_facets_from_listing();
--> statement-breakpoint
CREATE TRIGGER "listing_facets_delete" AFTER DELETE ON "product_listing" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_facets_from_listing();
--> statement-breakpoint
-- Fill it from any catalogue that already exists.
SELECT product_listing_refresh(array(SELECT id FROM products));
--> statement-breakpoint
-- Words with digits no longer belong to the search dictionary.
DELETE FROM "search_words" WHERE "word" ~ '[0-9]';
