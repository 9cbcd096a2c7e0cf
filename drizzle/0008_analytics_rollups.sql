CREATE TABLE "analytics_daily_rollups" (
	"project_id" uuid NOT NULL,
	"mask" smallint NOT NULL,
	"channel" text NOT NULL,
	"template_id" text NOT NULL,
	"template_version" text NOT NULL,
	"device_type" text NOT NULL,
	"country" text NOT NULL,
	"day" date NOT NULL,
	"sessions" bigint DEFAULT 0 NOT NULL,
	"sessions_with_play" bigint DEFAULT 0 NOT NULL,
	"sessions_with_play_and_cta_click" bigint DEFAULT 0 NOT NULL,
	"plays" bigint DEFAULT 0 NOT NULL,
	"completed_plays" bigint DEFAULT 0 NOT NULL,
	"reached_25" bigint DEFAULT 0 NOT NULL,
	"reached_50" bigint DEFAULT 0 NOT NULL,
	"reached_75" bigint DEFAULT 0 NOT NULL,
	"watch_percent_sum" double precision DEFAULT 0 NOT NULL,
	"cta_clicks" bigint DEFAULT 0 NOT NULL,
	"autoplay_failures" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"bot_events" bigint DEFAULT 0 NOT NULL,
	"heatmap_plays" bigint DEFAULT 0 NOT NULL,
	"breakdowns" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"chapters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"heatmap" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"heatmap_furthest_ms" double precision,
	"viewers" "bytea",
	CONSTRAINT "analytics_daily_rollups_pk" PRIMARY KEY("project_id","mask","channel","template_id","template_version","device_type","country","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_hourly_rollups" (
	"project_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"channel" text NOT NULL,
	"template_id" text NOT NULL,
	"template_version" text NOT NULL,
	"device_type" text NOT NULL,
	"country" text NOT NULL,
	"sessions" bigint DEFAULT 0 NOT NULL,
	"plays" bigint DEFAULT 0 NOT NULL,
	"completions" bigint DEFAULT 0 NOT NULL,
	"cta_clicks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_hourly_rollups_pk" PRIMARY KEY("project_id","hour","channel","template_id","template_version","device_type","country")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_cursor" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"processed_before" "xid8" NOT NULL,
	CONSTRAINT "analytics_rollup_cursor_one_row" CHECK ("analytics_rollup_cursor"."id" = 1)
);
--> statement-breakpoint
-- The cursor starts below every transaction: the first run rolls up the events already stored.
INSERT INTO "analytics_rollup_cursor" ("processed_before") VALUES ('0');
