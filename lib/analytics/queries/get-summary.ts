import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { rate } from "../definitions";
import { playsCte, scopedEventsCte, selectRows, type AnalyticsFilter } from "../sql";

export type AnalyticsSummary = {
  sessions: number;
  uniqueViewers: number;
  plays: number;
  sessionsWithPlay: number;
  playRate: number | null;
  completedPlays: number;
  completionRate: number | null;
  averageWatchPercent: number | null;
  ctaClicks: number;
  sessionsWithPlayAndCtaClick: number;
  ctr: number | null;
  autoplayFailures: number;
  errors: number;
};

type SummaryRow = {
  sessions: number;
  unique_viewers: number;
  plays: number;
  sessions_with_play: number;
  completed_plays: number;
  average_watch_percent: number | null;
  cta_clicks: number;
  sessions_with_play_and_cta_click: number;
  autoplay_failures: number;
  errors: number;
};

/** Sessions, plays, viewers, completion, watch percent, CTA clicks, autoplay failures and errors (definitions.ts). */
export async function getSummary(db: Db, filter: AnalyticsFilter): Promise<AnalyticsSummary> {
  const [row] = await selectRows<SummaryRow>(
    db,
    sql`with ${scopedEventsCte(filter)}, ${playsCte},
    sessions as (
      select distinct session_id from scoped where event_type = 'session.started' and session_id is not null
    ),
    sessions_with_play as (
      select session_id from sessions where exists (select 1 from plays where plays.session_id = sessions.session_id)
    )
    select
      (select count(*) from sessions)::int as sessions,
      (select count(distinct coalesce(viewer_hash, session_id)) from scoped
        where event_type = 'session.started' and session_id is not null)::int as unique_viewers,
      (select count(*) from plays)::int as plays,
      (select count(*) from sessions_with_play)::int as sessions_with_play,
      (select count(*) from plays where completed)::int as completed_plays,
      (select avg(watched_percent) from plays)::float8 as average_watch_percent,
      (select count(*) from scoped where event_type = 'cta.clicked')::int as cta_clicks,
      (select count(*) from sessions_with_play s where exists (
        select 1 from scoped where event_type = 'cta.clicked' and scoped.session_id = s.session_id))::int
        as sessions_with_play_and_cta_click,
      (select count(*) from scoped where event_type = 'autoplay.failed')::int as autoplay_failures,
      (select count(*) from scoped where event_type = 'video.errored')::int as errors`,
  );
  if (!row) throw new Error("The summary query returned no row");
  return {
    sessions: row.sessions,
    uniqueViewers: row.unique_viewers,
    plays: row.plays,
    sessionsWithPlay: row.sessions_with_play,
    playRate: rate(row.sessions_with_play, row.sessions),
    completedPlays: row.completed_plays,
    completionRate: rate(row.completed_plays, row.plays),
    averageWatchPercent: row.average_watch_percent,
    ctaClicks: row.cta_clicks,
    sessionsWithPlayAndCtaClick: row.sessions_with_play_and_cta_click,
    ctr: rate(row.sessions_with_play_and_cta_click, row.sessions_with_play),
    autoplayFailures: row.autoplay_failures,
    errors: row.errors,
  };
}
