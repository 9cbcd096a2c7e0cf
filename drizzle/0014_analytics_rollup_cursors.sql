CREATE TABLE "analytics_rollup_cursors" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"processed_before" "xid8" NOT NULL,
	"newest_received_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "analytics_events_xid_idx";--> statement-breakpoint
CREATE INDEX "analytics_events_project_xid_idx" ON "analytics_events" USING btree ("project_id","xid");--> statement-breakpoint
-- Every project starts where the single cursor was: what it passed is in the rollups.
INSERT INTO "analytics_rollup_cursors" ("project_id", "processed_before", "newest_received_at")
SELECT p."id", c."processed_before",
  (SELECT e."received_at" FROM "analytics_events" e WHERE e."project_id" = p."id" AND e."xid" < c."processed_before" ORDER BY e."xid" DESC LIMIT 1)
FROM "projects" p CROSS JOIN "analytics_rollup_cursor" c;
