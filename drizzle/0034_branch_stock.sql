-- Stock per branch (issue 30, ADR 0047). Every shop has a default branch: a shop
-- that had none gets "Main branch" (kept off the public branch pages until it has
-- an address), and everything it held, sold and moved until now is that branch's.
INSERT INTO "branches" ("slug", "name", "line_1", "town", "postcode", "services", "is_default", "position")
SELECT 'main', 'Main branch', '', '', '', '{collect}'::text[], true, 0
WHERE NOT EXISTS (SELECT 1 FROM "branches" WHERE "is_default");--> statement-breakpoint
CREATE TABLE "branch_stock" (
	"variant_id" integer NOT NULL,
	"branch_id" integer NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "branch_stock_variant_id_branch_id_pk" PRIMARY KEY("variant_id","branch_id"),
	CONSTRAINT "branch_stock_stock_check" CHECK ("branch_stock"."stock" >= 0)
);
--> statement-breakpoint
INSERT INTO "branch_stock" ("variant_id", "branch_id", "stock")
SELECT v."id", b."id", v."stock" FROM "product_variants" v CROSS JOIN (SELECT "id" FROM "branches" WHERE "is_default") b WHERE v."stock" > 0;--> statement-breakpoint
ALTER TABLE "branch_stock" ADD CONSTRAINT "branch_stock_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branch_stock" ADD CONSTRAINT "branch_stock_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "branch_stock_branch_idx" ON "branch_stock" USING btree ("branch_id","variant_id");--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_kind_check";--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "branch_id" integer;--> statement-breakpoint
UPDATE "stock_movements" SET "branch_id" = (SELECT "id" FROM "branches" WHERE "is_default");--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "branch_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_branch_idx" ON "stock_movements" USING btree ("branch_id","id");--> statement-breakpoint
CREATE INDEX "stock_movements_order_idx" ON "stock_movements" USING btree ("order_id") WHERE "stock_movements"."order_id" is not null;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_kind_check" CHECK ("stock_movements"."kind" in ('opening', 'received', 'counted', 'adjusted', 'sold', 'returned', 'cancelled', 'transfer_out', 'transfer_in'));--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "branch_id" integer;--> statement-breakpoint
UPDATE "orders" SET "branch_id" = (SELECT "id" FROM "branches" WHERE "is_default");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_branch_status_idx" ON "orders" USING btree ("branch_id","status","id") WHERE "orders"."branch_id" is not null;
--> statement-breakpoint
-- The ledger moves a branch's stock and the variant's total together. Older
-- tools, scripts and a new product's first variant write the variant's stock
-- (or its product's) directly: the difference from its branches' total is the
-- default branch's, so the two never disagree.
CREATE FUNCTION "branch_stock_follows_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  home integer := (SELECT id FROM branches WHERE is_default);
BEGIN
  WITH d AS (
    SELECT n.id, n.stock - coalesce((SELECT sum(x.stock) FROM branch_stock x WHERE x.variant_id = n.id), 0)::integer AS difference
    FROM new_rows n
  ),
  changed AS (
    UPDATE branch_stock s SET stock = s.stock + d.difference FROM d
    WHERE s.variant_id = d.id AND s.branch_id = home AND d.difference <> 0
    RETURNING s.variant_id
  )
  INSERT INTO branch_stock (variant_id, branch_id, stock)
  SELECT d.id, home, d.difference FROM d
  WHERE d.difference <> 0 AND NOT EXISTS (SELECT 1 FROM changed c WHERE c.variant_id = d.id)
  ORDER BY d.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "branch_stock_variants_insert" AFTER INSERT ON "product_variants" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION branch_stock_follows_variants();
--> statement-breakpoint
CREATE TRIGGER "branch_stock_variants_update" AFTER UPDATE ON "product_variants" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION branch_stock_follows_variants();
