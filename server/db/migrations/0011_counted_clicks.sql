ALTER TABLE "events" ADD COLUMN "count_key" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "counted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "link_clicks" ADD COLUMN "count_key" text;--> statement-breakpoint
ALTER TABLE "link_clicks" ADD COLUMN "counted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "profile_views" ADD COLUMN "count_key" text;--> statement-breakpoint
ALTER TABLE "profile_views" ADD COLUMN "counted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "events_counted" ON "events" USING btree ("event_id","count_key","created_at") WHERE "events"."counted";--> statement-breakpoint
CREATE INDEX "link_clicks_counted" ON "link_clicks" USING btree ("link_id","count_key","created_at") WHERE "link_clicks"."counted";--> statement-breakpoint
CREATE INDEX "profile_views_counted" ON "profile_views" USING btree ("profile_id","count_key","created_at") WHERE "profile_views"."counted";