CREATE TABLE "hire_basket_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"basket_id" integer NOT NULL,
	"hire_item_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hire_basket_lines_quantity_check" CHECK ("hire_basket_lines"."quantity" between 1 and 99)
);
--> statement-breakpoint
CREATE TABLE "hire_baskets" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"guest_token_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hire_request_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"hire_item_id" integer NOT NULL,
	"name" text NOT NULL,
	"quantity" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"days" integer NOT NULL,
	"hire_cost" integer NOT NULL,
	"vat" integer NOT NULL,
	"deposit" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hire_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"user_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"fulfilment" text NOT NULL,
	"address_line1" text DEFAULT '' NOT NULL,
	"address_line2" text DEFAULT '' NOT NULL,
	"town" text DEFAULT '' NOT NULL,
	"postcode" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"hire_cost" integer NOT NULL,
	"vat" integer NOT NULL,
	"deposit" integer NOT NULL,
	"hold_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hire_basket_lines" ADD CONSTRAINT "hire_basket_lines_basket_id_hire_baskets_id_fk" FOREIGN KEY ("basket_id") REFERENCES "public"."hire_baskets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_basket_lines" ADD CONSTRAINT "hire_basket_lines_hire_item_id_hire_items_id_fk" FOREIGN KEY ("hire_item_id") REFERENCES "public"."hire_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_baskets" ADD CONSTRAINT "hire_baskets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_request_lines" ADD CONSTRAINT "hire_request_lines_request_id_hire_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."hire_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_request_lines" ADD CONSTRAINT "hire_request_lines_hire_item_id_hire_items_id_fk" FOREIGN KEY ("hire_item_id") REFERENCES "public"."hire_items"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hire_requests" ADD CONSTRAINT "hire_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hire_basket_lines_basket_idx" ON "hire_basket_lines" USING btree ("basket_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_baskets_user_key" ON "hire_baskets" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_baskets_guest_key" ON "hire_baskets" USING btree ("guest_token_hash");--> statement-breakpoint
CREATE INDEX "hire_request_lines_request_idx" ON "hire_request_lines" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hire_requests_number_key" ON "hire_requests" USING btree ("number");--> statement-breakpoint
CREATE INDEX "hire_requests_user_idx" ON "hire_requests" USING btree ("user_id","created_at");