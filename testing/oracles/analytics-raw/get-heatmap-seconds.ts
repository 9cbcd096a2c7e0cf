import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { scopedEventsCte, selectRows, type ScopeFilter } from "./sql";

/** Per-second changes of the heatmap's counts; a running sum over seconds gives the counts themselves. */
export type HeatmapDeltas = {
  plays: number;
  /** The furthest watched millisecond + 1 (the greatest clipped toMs), null without spans. */
  furthestMs: number | null;
  /** second → [views delta, watched plays delta, drop-offs in that second]. */
  deltas: Map<number, [views: number, watchedPlays: number, dropOffs: number]>;
};

type DeltaRow = { second: number; views: number; watched_plays: number; drop_offs: number; plays: number; furthest_ms: number | null };

/**
 * The heatmap of lib/analytics/definitions.ts on raw events: payload.watched spans per play, clipped to the
 * duration, turned into second intervals [floor(from/1000), ceil(to/1000)). Views are +1/−1 at
 * each span's ends; watched plays the same over each play's merged intervals (gaps and
 * islands), so a second rewatched within a play still counts that play once. Nothing is
 * expanded per second: the work is per span, whatever the video's length.
 */
export async function getHeatmapDeltas(db: Db, filter: ScopeFilter, durationMs: number | null): Promise<HeatmapDeltas> {
  const rows = await selectRows<DeltaRow>(
    db,
    sql`with ${scopedEventsCte(filter)},
    spans as (
      select session_id || '/' || playback_id as play,
        greatest((span ->> 0)::float8, 0) as from_ms,
        ${durationMs === null ? sql`(span ->> 1)::float8` : sql`least((span ->> 1)::float8, ${durationMs}::float8)`} as to_ms
      from scoped
      cross join lateral jsonb_array_elements(case when jsonb_typeof(payload -> 'watched') = 'array' then payload -> 'watched' else '[]'::jsonb end) as span
      where event_type in ('video.paused', 'video.completed', 'video.incomplete')
        and session_id is not null and playback_id is not null
        and jsonb_typeof(span) = 'array' and jsonb_typeof(span -> 0) = 'number' and jsonb_typeof(span -> 1) = 'number'
    ),
    seconds as (
      select play, floor(from_ms / 1000)::int as a, ceil(to_ms / 1000)::int as b, to_ms from spans where from_ms < to_ms
    ),
    ordered as (
      select play, a, b, max(b) over (partition by play order by a, b rows between unbounded preceding and 1 preceding) as reach
      from seconds
    ),
    islands as (
      select play, a, b, sum(case when reach is null or a > reach then 1 else 0 end) over (partition by play order by a, b) as island
      from ordered
    ),
    merged as (
      select play, min(a) as a, max(b) as b from islands group by play, island
    ),
    completed as (
      select distinct session_id || '/' || playback_id as play from scoped
      where event_type = 'video.completed' and session_id is not null and playback_id is not null
    ),
    drops as (
      select floor((max(to_ms) - 1) / 1000)::int as second from seconds
      where play not in (select play from completed)
      group by play
    ),
    deltas as (
      select a as second, 1 as views, 0 as watched_plays, 0 as drop_offs from seconds
      union all select b, -1, 0, 0 from seconds
      union all select a, 0, 1, 0 from merged
      union all select b, 0, -1, 0 from merged
      union all select second, 0, 0, 1 from drops
    )
    select second, sum(views)::int as views, sum(watched_plays)::int as watched_plays, sum(drop_offs)::int as drop_offs,
      (select count(distinct play) from seconds)::int as plays,
      (select max(to_ms) from seconds)::float8 as furthest_ms
    from deltas
    group by second`,
  );
  return {
    plays: rows[0]?.plays ?? 0,
    furthestMs: rows[0]?.furthest_ms ?? null,
    deltas: new Map(rows.map((row) => [row.second, [row.views, row.watched_plays, row.drop_offs]])),
  };
}
