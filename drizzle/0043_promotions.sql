CREATE TABLE "basket_promotions" (
	"basket_id" integer NOT NULL,
	"promotion_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "basket_promotions_basket_id_promotion_id_pk" PRIMARY KEY("basket_id","promotion_id")
);
--> statement-breakpoint
CREATE TABLE "promotion_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"promotion_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"discount" integer NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	"buy" integer,
	"multi_buy" text,
	"min_spend" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"audience" text DEFAULT 'all' NOT NULL,
	"stackable" boolean DEFAULT false NOT NULL,
	"applies_to" jsonb DEFAULT '{"product_ids": [], "category_ids": [], "brand_ids": []}'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_kind_check" CHECK ("promotions"."kind" in ('percent', 'amount', 'free_delivery', 'multi_buy')),
	CONSTRAINT "promotions_status_check" CHECK ("promotions"."status" in ('active', 'paused', 'ended')),
	CONSTRAINT "promotions_audience_check" CHECK ("promotions"."audience" in ('all', 'consumer', 'trade')),
	CONSTRAINT "promotions_multi_buy_check" CHECK (("promotions"."kind" = 'multi_buy') = ("promotions"."multi_buy" is not null and "promotions"."buy" is not null and "promotions"."code" is null)),
	CONSTRAINT "promotions_uses_check" CHECK ("promotions"."uses" >= 0 and ("promotions"."max_uses" is null or "promotions"."uses" <= "promotions"."max_uses"))
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "basket_promotions" ADD CONSTRAINT "basket_promotions_basket_id_baskets_id_fk" FOREIGN KEY ("basket_id") REFERENCES "public"."baskets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "basket_promotions" ADD CONSTRAINT "basket_promotions_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_redemptions_order_key" ON "promotion_redemptions" USING btree ("promotion_id","order_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_order_idx" ON "promotion_redemptions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_user_idx" ON "promotion_redemptions" USING btree ("promotion_id","user_id") WHERE "promotion_redemptions"."released_at" is null;--> statement-breakpoint
CREATE INDEX "promotion_redemptions_email_idx" ON "promotion_redemptions" USING btree ("promotion_id","email") WHERE "promotion_redemptions"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_key" ON "promotions" USING btree (lower("code")) WHERE "promotions"."code" is not null;--> statement-breakpoint
CREATE INDEX "promotions_automatic_idx" ON "promotions" USING btree ("id") WHERE "promotions"."code" is null and "promotions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "promotions_status_idx" ON "promotions" USING btree ("status","id");--> statement-breakpoint
-- An order's promotion uses given back (issue 32): its codes may be used again. Called when the
-- order is cancelled, by whichever path (the trigger below), and when it is wholly returned (returns/service.ts).
CREATE FUNCTION release_order_promotions(p_order integer) RETURNS void LANGUAGE sql AS $$
  WITH released AS (
    UPDATE promotion_redemptions SET released_at = now() WHERE order_id = p_order AND released_at IS NULL RETURNING promotion_id
  )
  UPDATE promotions p SET uses = p.uses - 1, updated_at = now() FROM released r WHERE p.id = r.promotion_id;
$$;--> statement-breakpoint
CREATE FUNCTION orders_release_promotions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM release_order_promotions(NEW.id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_release_promotions AFTER UPDATE OF status ON orders FOR EACH ROW
  WHEN (NEW.status = 'cancelled' AND OLD.status IS DISTINCT FROM 'cancelled') EXECUTE FUNCTION orders_release_promotions();
