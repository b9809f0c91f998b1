CREATE TABLE "category_redirects" (
	"path" text PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "category_redirects" ADD CONSTRAINT "category_redirects_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "category_redirects_category_idx" ON "category_redirects" USING btree ("category_id");--> statement-breakpoint
-- An old category address answering with a redirect is part of what the storefront shows.
CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON "category_redirects" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON "category_redirects" FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
-- A rename or reorder changes no product's ancestors: only a new parent sends its products through the listing refresh.
CREATE OR REPLACE FUNCTION "product_listing_from_categories"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_listing_refresh(array(
    SELECT l.product_id FROM product_listing l WHERE l.category_ids && array(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.parent_id IS DISTINCT FROM o.parent_id)));
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "product_listing_category_tree" ON "categories";
--> statement-breakpoint
CREATE TRIGGER "product_listing_category_tree" AFTER UPDATE ON "categories" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_from_categories();
