CREATE TABLE "analytics_quarantine_counts" (
	"project_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "analytics_quarantine_counts_project_id_hour_reason_pk" PRIMARY KEY("project_id","hour","reason")
);
--> statement-breakpoint
CREATE TABLE "analytics_quarantine_samples" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"event" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "is_bot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "analytics_quarantine_samples_project_idx" ON "analytics_quarantine_samples" USING btree ("project_id","id");--> statement-breakpoint
-- Events stored before the column existed: enrichment already typed their device "bot".
UPDATE "analytics_events" SET "is_bot" = true WHERE "device" ->> 'type' = 'bot';