-- Typo-tolerant search (POST /v1/discover/search): trigram similarity on names, tags and titles.
-- PGlite loads the extension from @electric-sql/pglite/contrib/pg_trgm (server/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm" ON "users" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_username_trgm" ON "users" USING gin ("username" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tags_name_trgm" ON "tags" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "videos_title_trgm" ON "videos" USING gin ("title" gin_trgm_ops);
