import { sql, type SQL } from "drizzle-orm";
export { selectRows } from "@/lib/analytics/select-rows";
import type { BreakdownDimension, SeriesGranularity } from "@/lib/analytics/definitions";
import { unknownKey } from "@/lib/analytics/definitions";
import type { AnalyticsQuery } from "@/lib/analytics/contract";

// Fragments the queries in ./queries share, so every query scopes and counts the same way
// (lib/analytics/definitions.ts says what they mean). Values travel as bind parameters; the only SQL text
// chosen at run time is a dimension's key expression, picked from a fixed table.

/** A query's input: the project it is scoped to and the resolved window and filters. */
export type AnalyticsFilter = AnalyticsQuery & { projectId: string };

/** The window and filters alone: what a query reads, bots included (lib/analytics/definitions.ts, excluded.botEvents). */
export type ScopeFilter = Pick<AnalyticsFilter, "projectId" | "from" | "to" | "channel" | "templateId" | "templateVersion" | "deviceType" | "country">;

/** The WHERE conditions of the project's events in [from, to) that match every filter given, bots included. */
export function scopeConditions(filter: ScopeFilter): SQL {
  return sql`project_id = ${filter.projectId}::uuid
      and occurred_at >= ${filter.from.toISOString()}::timestamptz
      and occurred_at < ${filter.to.toISOString()}::timestamptz
      ${filter.channel ? sql`and channel = ${filter.channel}` : sql``}
      ${filter.templateId ? sql`and template_id = ${filter.templateId}` : sql``}
      ${filter.templateVersion ? sql`and template_version = ${filter.templateVersion}` : sql``}
      ${filter.deviceType ? sql`and ${dimensionKey("deviceType")} = ${filter.deviceType}` : sql``}
      ${filter.country ? sql`and ${dimensionKey("country")} = ${filter.country}` : sql``}`;
}

/** `scoped`: the project's non-bot events in [from, to), narrowed by every filter. Every query starts from it. */
export function scopedEventsCte(filter: ScopeFilter): SQL {
  return sql`scoped as (
    select event_id, event_type, occurred_at, session_id, playback_id, viewer_hash, payload,
      channel, template_version, device, geo, referrer_host
    from analytics_events
    where ${scopeConditions(filter)}
      and not is_bot
  )`;
}

/** payload.percent clamped to 0–100, or null when it is not a number. */
const payloadPercent = sql`case when jsonb_typeof(payload -> 'percent') = 'number'
  then least(greatest((payload ->> 'percent')::float8, 0), 100) end`;

/**
 * `plays` (needs `scoped`): one row per play with `completed`, `highest_quartile` (from
 * video.progressed and video.completed) and `watched_percent` (video.incomplete counted too).
 */
export const playsCte = sql`plays as (
  select session_id, playback_id,
    bool_or(event_type = 'video.completed') as completed,
    coalesce(max(case when event_type = 'video.completed' then 100
                      when event_type = 'video.progressed' then ${payloadPercent} end), 0) as highest_quartile,
    coalesce(max(case when event_type = 'video.completed' then 100
                      when event_type in ('video.progressed', 'video.incomplete') then ${payloadPercent} end), 0) as watched_percent
  from scoped
  where session_id is not null and playback_id is not null
  group by session_id, playback_id
  having bool_or(event_type = 'video.played')
)`;

const dimensionValues: Record<BreakdownDimension, SQL> = {
  day: sql`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`,
  channel: sql`channel`,
  templateVersion: sql`template_version`,
  deviceType: sql`device ->> 'type'`,
  browser: sql`device ->> 'browser'`,
  os: sql`device ->> 'os'`,
  referrerHost: sql`referrer_host`,
  country: sql`geo ->> 'country'`,
};

/** The key expression of a dimension; anything not in the table is refused before any SQL is built. */
export function dimensionKey(dimension: BreakdownDimension): SQL {
  if (!Object.hasOwn(dimensionValues, dimension)) throw new RangeError(`Unknown breakdown dimension ${JSON.stringify(dimension)}`);
  return sql`coalesce(nullif(${dimensionValues[dimension]}, ''), ${unknownKey})`;
}

/**
 * `facts` (needs `scoped`): rows (key, sessions, plays, completions, cta_clicks) of 0s and 1s,
 * one per session, play and click, keyed as lib/analytics/definitions.ts says; a breakdown sums them by key.
 */
export function breakdownFactsCtes(dimension: BreakdownDimension): SQL {
  return factsCtes(dimensionKey(dimension));
}

/** `facts` keyed by the start of each event's UTC hour or day, as an ISO instant (the series' buckets). */
export function seriesFactsCtes(granularity: SeriesGranularity): SQL {
  const unit = granularity === "hour" ? sql`'hour'` : sql`'day'`;
  return factsCtes(sql`to_char(date_trunc(${unit}, occurred_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}

// Grouped, never joined: a filter the planner cannot estimate must not turn a join into a nested loop.
function factsCtes(key: SQL): SQL {
  return sql`first_session_events as (
    select distinct on (session_id) session_id, ${key} as key
    from scoped
    where event_type = 'session.started' and session_id is not null
    order by session_id, occurred_at, event_id
  ),
  keyed_plays as (
    select (array_agg(${key} order by occurred_at, event_id) filter (where event_type = 'video.played'))[1] as key,
      bool_or(event_type = 'video.completed') as completed
    from scoped
    where event_type in ('video.played', 'video.completed') and session_id is not null and playback_id is not null
    group by session_id, playback_id
    having bool_or(event_type = 'video.played')
  ),
  facts as (
    select key, 1 as sessions, 0 as plays, 0 as completions, 0 as cta_clicks from first_session_events
    union all
    select key, 0, 1, case when completed then 1 else 0 end, 0 from keyed_plays
    union all
    select ${key}, 0, 0, 0, 1 from scoped where event_type = 'cta.clicked'
  )`;
}
