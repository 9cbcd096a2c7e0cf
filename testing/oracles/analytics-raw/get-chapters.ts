import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { maxBreakdownKeys, rate } from "@/lib/analytics/definitions";
import { scopedEventsCte, selectRows, type AnalyticsFilter } from "./sql";

export type ChapterRow = { chapterId: string; chapterName: string; sessions: number; plays: number; share: number | null };

type ChapterQueryRow = { chapter_id: string; chapter_name: string; sessions: number; plays: number };

/** Sessions and plays that entered each chapter (chapter.entered), by the position it starts at (lib/analytics/definitions.ts). */
export async function getChapters(db: Db, filter: AnalyticsFilter, totalPlays: number): Promise<ChapterRow[]> {
  const rows = await selectRows<ChapterQueryRow>(
    db,
    // Whether an entry belongs to a play is a window over its playback's events, not a join.
    sql`with ${scopedEventsCte(filter)},
    entered as (
      select event_type, payload ->> 'chapter_id' as chapter_id, payload ->> 'chapter_name' as chapter_name,
        case when jsonb_typeof(payload -> 'position_ms') = 'number' then (payload ->> 'position_ms')::float8 end as position_ms,
        session_id, playback_id, occurred_at, event_id,
        playback_id is not null and bool_or(event_type = 'video.played') over (partition by session_id, playback_id) as in_play
      from scoped
      where event_type in ('chapter.entered', 'video.played') and session_id is not null
    )
    select chapter_id,
      coalesce((array_agg(chapter_name order by occurred_at desc, event_id desc))[1], chapter_id) as chapter_name,
      count(distinct session_id)::int as sessions,
      count(distinct case when in_play then session_id || '/' || playback_id end)::int as plays
    from entered
    where event_type = 'chapter.entered' and chapter_id is not null
    group by chapter_id
    order by min(position_ms) nulls last, chapter_id collate "C"
    limit ${maxBreakdownKeys}`,
  );
  return rows.map((row) => ({
    chapterId: row.chapter_id,
    chapterName: row.chapter_name,
    sessions: row.sessions,
    plays: row.plays,
    share: rate(row.plays, totalPlays),
  }));
}
