ALTER TABLE "videos" ADD COLUMN "media_attempts" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "media_heartbeat_at" timestamp with time zone;