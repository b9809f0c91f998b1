-- The outbox worker claims the oldest pending message by id: an index of the
-- pending ids alone, so a claim no longer walks every message ever sent (the
-- primary key's scan filtered them out one by one, 6 ms a claim after a few
-- thousand, three claims an order).
DROP INDEX "mail_outbox_due_idx";--> statement-breakpoint
CREATE INDEX "mail_outbox_pending_idx" ON "mail_outbox" USING btree ("id") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
-- A sale moves stock only: the listing's and the facets' refreshes are SQL
-- functions, planned afresh at every call, and they were called with nothing
-- to refresh (about 3 ms of every order's stock movement). The triggers below
-- are the same as before but call them only when some row moved.
CREATE OR REPLACE FUNCTION "product_listing_from_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT DISTINCT product_id FROM new_rows WHERE options <> '{}'::jsonb);
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT DISTINCT product_id FROM old_rows WHERE options <> '{}'::jsonb);
  ELSE
    ids := array(
      SELECT DISTINCT n.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.options, n.status) IS DISTINCT FROM (o.options, o.status));
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM product_listing_refresh(ids);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "product_listing_from_products"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE product_listing l SET stock = n.stock FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE l.product_id = n.id AND n.stock IS DISTINCT FROM o.stock
        AND (n.price_pence, n.vat_rate, n.manufacturer_id, n.featured, n.name, n.created_at, n.status) IS NOT DISTINCT FROM (o.price_pence, o.vat_rate, o.manufacturer_id, o.featured, o.name, o.created_at, o.status);
    ids := array(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.price_pence, n.vat_rate, n.manufacturer_id, n.featured, n.name, n.created_at, n.status) IS DISTINCT FROM (o.price_pence, o.vat_rate, o.manufacturer_id, o.featured, o.name, o.created_at, o.status));
  ELSE
    ids := array(SELECT id FROM new_rows);
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM product_listing_refresh(ids);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "listing_facets_from_listing"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  leaving product_listing[];
  arriving product_listing[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    leaving := '{}';
    arriving := array(SELECT n::product_listing FROM new_rows n);
  ELSIF TG_OP = 'DELETE' THEN
    leaving := array(SELECT o::product_listing FROM old_rows o);
    arriving := '{}';
  ELSE
    -- Only rows whose facets moved, both sides in one pass: a sale that leaves stock above zero moves none.
    SELECT coalesce(array_agg(o::product_listing), '{}'), coalesce(array_agg(n::product_listing), '{}') INTO leaving, arriving
    FROM old_rows o JOIN new_rows n ON n.product_id = o.product_id
    WHERE (o.category_ids, o.attribute_keys, o.manufacturer_id, o.stock > 0) IS DISTINCT FROM (n.category_ids, n.attribute_keys, n.manufacturer_id, n.stock > 0);
  END IF;
  IF cardinality(leaving) > 0 OR cardinality(arriving) > 0 THEN
    PERFORM listing_facets_apply(leaving, arriving);
  END IF;
  RETURN NULL;
END $$;
