CREATE TABLE "offer_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"inquiry_id" text,
	"requirement_id" text,
	"seller_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" text PRIMARY KEY NOT NULL,
	"thread_id" text NOT NULL,
	"from_side" text NOT NULL,
	"author_id" text NOT NULL,
	"product_id" text,
	"unit_price" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"quantity" integer NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"held_for" text,
	"reply_id" text,
	"sent_by_ai" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "offer_id" text;--> statement-breakpoint
ALTER TABLE "requirements" ADD COLUMN "category_id" text;--> statement-breakpoint
ALTER TABLE "requirements" ADD COLUMN "quantity" integer;--> statement-breakpoint
ALTER TABLE "offer_threads" ADD CONSTRAINT "offer_threads_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_threads" ADD CONSTRAINT "offer_threads_requirement_id_requirements_id_fk" FOREIGN KEY ("requirement_id") REFERENCES "public"."requirements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_threads" ADD CONSTRAINT "offer_threads_seller_id_seller_profiles_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."seller_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_threads" ADD CONSTRAINT "offer_threads_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_thread_id_offer_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."offer_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_reply_id_inquiry_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."inquiry_replies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offer_threads_inquiry_key" ON "offer_threads" USING btree ("inquiry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_threads_requirement_store_key" ON "offer_threads" USING btree ("requirement_id","seller_id");--> statement-breakpoint
CREATE INDEX "offer_threads_buyer_idx" ON "offer_threads" USING btree ("buyer_id","updated_at");--> statement-breakpoint
CREATE INDEX "offer_threads_seller_idx" ON "offer_threads" USING btree ("seller_id","updated_at");--> statement-breakpoint
CREATE INDEX "offers_thread_idx" ON "offers" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_status_valid_idx" ON "offers" USING btree ("status","valid_until");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requirements" ADD CONSTRAINT "requirements_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_offer_idx" ON "orders" USING btree ("offer_id");