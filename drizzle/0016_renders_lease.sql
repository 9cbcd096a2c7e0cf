ALTER TABLE "renders" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "renders_due_idx" ON "renders" USING btree ("next_attempt_at") WHERE "renders"."status" in ('queued', 'rendering');--> statement-breakpoint
-- A render under way when this runs keeps its worker's time: pg-boss's jobs expired after 15 min.
UPDATE "renders" SET "next_attempt_at" = coalesce("started_at", now()) + interval '15 minutes' WHERE "status" = 'rendering';--> statement-breakpoint
-- Renders no longer go through pg-boss (docs/adr/0141-one-job-mechanism-lease-rows.md); its schema held only their jobs.
DROP SCHEMA IF EXISTS "pgboss" CASCADE;
