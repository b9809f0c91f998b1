-- The page cache's version (ADR 0025): every committed transaction that changes
-- what a page shows adds one to one of these rows, in the same transaction, so a
-- reader sees the new sum exactly when it can see the new data. Sixteen rows,
-- one per transaction id modulo 16, so concurrent checkouts rarely wait on one
-- another's row.
CREATE TABLE "page_versions" (
	"shard" smallint PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "page_versions" ("shard") SELECT generate_series(0, 15);
--> statement-breakpoint
-- Once per transaction (a transaction-local setting remembers it): a bulk write
-- of 100,000 rows bumps once.
CREATE FUNCTION "page_version_bump"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tradecounter.page_version_bumped', true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config('tradecounter.page_version_bumped', 'yes', true);
    UPDATE page_versions SET n = n + 1 WHERE shard = (txid_current() % 16)::smallint;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "page_version_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM page_version_bump();
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Deferred to the commit: the row lock is taken after every other lock the
-- transaction needs, so it cannot join a deadlock, and it is held only while
-- the transaction commits. TRUNCATE cannot have a constraint trigger; it bumps
-- at once.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[
    'categories', 'manufacturers', 'products', 'product_categories', 'product_listing', 'listing_facets',
    'product_attributes', 'related_products', 'search_words',
    'hire_categories', 'hire_items', 'hire_units', 'hire_allocations',
    'delivery_methods', 'delivery_zones'
  ] LOOP
    EXECUTE format(
      'CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed()',
      t
    );
    EXECUTE format('CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed()', t);
  END LOOP;
END;
$$;
