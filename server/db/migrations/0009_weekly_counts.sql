CREATE TABLE "weekly_window" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"counted_after" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "week_view_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "week_like_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "video_likes_created" ON "video_likes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "video_views_created" ON "video_views" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "videos_liked" ON "videos" USING btree ("status","like_count","id");--> statement-breakpoint
CREATE INDEX "videos_viewed" ON "videos" USING btree ("status","view_count","id");--> statement-breakpoint
CREATE INDEX "videos_liked_week" ON "videos" USING btree ("status","week_like_count","id");--> statement-breakpoint
CREATE INDEX "videos_viewed_week" ON "videos" USING btree ("status","week_view_count","id");--> statement-breakpoint
-- The window starts 7 days before the migration, and the counters start from the rows already in it.
INSERT INTO "weekly_window" ("id", "counted_after") VALUES (1, now() - interval '7 days');--> statement-breakpoint
UPDATE "videos" v SET "week_like_count" = c.n
  FROM (SELECT "video_id", count(*)::int AS n FROM "video_likes"
        WHERE "created_at" > (SELECT "counted_after" FROM "weekly_window") GROUP BY "video_id") c
  WHERE c."video_id" = v."id";--> statement-breakpoint
UPDATE "videos" v SET "week_view_count" = c.n
  FROM (SELECT "video_id", count(*)::int AS n FROM "video_views"
        WHERE "created_at" > (SELECT "counted_after" FROM "weekly_window") GROUP BY "video_id") c
  WHERE c."video_id" = v."id";
