ALTER TABLE "videos" ALTER COLUMN "publish_at" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "videos" ALTER COLUMN "publish_at" SET DEFAULT now();