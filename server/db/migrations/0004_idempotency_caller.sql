-- Hand-ordered: drizzle-kit put the new primary key before the column it names. Stored answers from before
-- cannot be told apart by sender; they are dropped, so a replay of one of them runs once more.
DELETE FROM "idempotency_keys";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "caller" text NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_scope_key_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_scope_caller_key_pk" PRIMARY KEY("scope","caller","key");
