-- analytics_events becomes a table partitioned by month of occurred_at (issue 16), written by
-- hand: drizzle-kit has no words for partitioning (lib/db/schema/analytics-events.ts lists the
-- columns and indexes every partition shares). The generated id column goes (nothing read it);
-- xid records the transaction that stored each row, for the rollup job's cursor. A unique index
-- of a partitioned table must hold the partition key: idempotency is per (project_id, event_id,
-- occurred_at), which a retried envelope repeats.
ALTER TABLE "analytics_events" RENAME TO "analytics_events_unpartitioned";--> statement-breakpoint
DROP INDEX "analytics_events_project_event_unique";--> statement-breakpoint
DROP INDEX "analytics_events_project_occurred_idx";--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"template_id" text,
	"template_version" text,
	"session_id" text,
	"playback_id" integer,
	"viewer_hash" text,
	"referrer_host" text,
	"consent" jsonb,
	"payload" jsonb NOT NULL,
	"device" jsonb,
	"geo" jsonb,
	"share_id" uuid,
	"channel" text,
	"is_bot" boolean DEFAULT false NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
) PARTITION BY RANGE ("occurred_at");--> statement-breakpoint
-- Rows whose month has no partition (a player clock years off) land here.
CREATE TABLE "analytics_events_default" PARTITION OF "analytics_events" DEFAULT;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_events_project_event_unique" ON "analytics_events" USING btree ("project_id","event_id","occurred_at");--> statement-breakpoint
CREATE INDEX "analytics_events_project_occurred_idx" ON "analytics_events" USING btree ("project_id","occurred_at");--> statement-breakpoint
CREATE INDEX "analytics_events_xid_idx" ON "analytics_events" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "analytics_events_project_session_idx" ON "analytics_events" USING btree ("project_id","session_id");--> statement-breakpoint
-- The month partition holding month_start (any instant of the month), made if missing. Rows of
-- that month already in the default partition move into it, in the caller's transaction.
-- Returns the partition's name. lib/analytics/partitions.ts calls it ahead of time.
CREATE FUNCTION "analytics_events_ensure_partition"(month_start timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	-- Month arithmetic on UTC wall-clock times, whatever the session's time zone.
	lower_bound timestamptz := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
	upper_bound timestamptz := (date_trunc('month', month_start AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
	partition_name text := 'analytics_events_' || to_char(lower_bound AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
	IF to_regclass(partition_name) IS NOT NULL THEN
		RETURN partition_name;
	END IF;
	-- No row may reach the default partition between the move and the attach (which would refuse it).
	LOCK TABLE analytics_events IN SHARE ROW EXCLUSIVE MODE;
	IF EXISTS (SELECT 1 FROM analytics_events_default WHERE occurred_at >= lower_bound AND occurred_at < upper_bound) THEN
		EXECUTE format('CREATE TABLE %I (LIKE analytics_events INCLUDING DEFAULTS)', partition_name);
		EXECUTE format('INSERT INTO %I SELECT * FROM analytics_events_default WHERE occurred_at >= %L AND occurred_at < %L', partition_name, lower_bound, upper_bound);
		DELETE FROM analytics_events_default WHERE occurred_at >= lower_bound AND occurred_at < upper_bound;
		EXECUTE format('ALTER TABLE analytics_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', partition_name, lower_bound, upper_bound);
	ELSE
		EXECUTE format('CREATE TABLE %I PARTITION OF analytics_events FOR VALUES FROM (%L) TO (%L)', partition_name, lower_bound, upper_bound);
	END IF;
	RETURN partition_name;
END
$$;--> statement-breakpoint
-- Partitions for the months the stored events fall in (at most the last two years: older ones
-- stay in the default partition) and for this month and the next two.
SELECT "analytics_events_ensure_partition"(month AT TIME ZONE 'UTC')
FROM generate_series(
	date_trunc('month', greatest(
		least((SELECT min(occurred_at) FROM analytics_events_unpartitioned), now()),
		now() - interval '2 years') AT TIME ZONE 'UTC'),
	(now() AT TIME ZONE 'UTC') + interval '2 months',
	interval '1 month') AS month;--> statement-breakpoint
INSERT INTO "analytics_events" (
	organization_id, project_id, event_id, event_type, occurred_at, received_at, template_id,
	template_version, session_id, playback_id, viewer_hash, referrer_host, consent, payload,
	device, geo, share_id, channel, is_bot)
SELECT
	organization_id, project_id, event_id, event_type, occurred_at, received_at, template_id,
	template_version, session_id, playback_id, viewer_hash, referrer_host, consent, payload,
	device, geo, share_id, channel, is_bot
FROM "analytics_events_unpartitioned";--> statement-breakpoint
DROP TABLE "analytics_events_unpartitioned";
