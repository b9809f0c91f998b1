CREATE TABLE "hire_item_slug_redirects" (
	"slug" text PRIMARY KEY NOT NULL,
	"hire_item_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hire_items" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_units" ADD COLUMN "serial_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_units" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "hire_item_slug_redirects" ADD CONSTRAINT "hire_item_slug_redirects_hire_item_id_hire_items_id_fk" FOREIGN KEY ("hire_item_id") REFERENCES "public"."hire_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hire_item_slug_redirects_item_idx" ON "hire_item_slug_redirects" USING btree ("hire_item_id");--> statement-breakpoint
-- An old hire item address answering with a redirect is part of what the storefront shows.
CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON "hire_item_slug_redirects" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON "hire_item_slug_redirects" FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed();
