import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { rate } from "@/lib/analytics/definitions";
import { playsCte, scopedEventsCte, selectRows, type AnalyticsFilter } from "./sql";

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

/** Sessions, plays, viewers, completion, watch percent, CTA clicks, autoplay failures and errors (lib/analytics/definitions.ts). */
export async function getSummary(db: Db, filter: AnalyticsFilter): Promise<AnalyticsSummary> {
  const [row] = await selectRows<SummaryRow>(
    db,
    // Session counts come from one pass grouped by session, with no join: a filter the planner
    // cannot estimate (deviceType, country) must not turn a semi-join into a nested loop.
    sql`with ${scopedEventsCte(filter)}, ${playsCte},
    session_facts as (
      select session_id,
        bool_or(event_type = 'session.started') as started,
        bool_or(event_type = 'video.played' and playback_id is not null) as played,
        bool_or(event_type = 'cta.clicked') as clicked
      from scoped
      where session_id is not null
      group by session_id
    ),
    session_counts as (
      select
        count(*) filter (where started) as sessions,
        count(*) filter (where started and played) as sessions_with_play,
        count(*) filter (where started and played and clicked) as sessions_with_play_and_cta_click
      from session_facts
    ),
    event_counts as (
      select
        count(distinct coalesce(viewer_hash, session_id)) filter (where event_type = 'session.started' and session_id is not null) as unique_viewers,
        count(*) filter (where event_type = 'cta.clicked') as cta_clicks,
        count(*) filter (where event_type = 'autoplay.failed') as autoplay_failures,
        count(*) filter (where event_type = 'video.errored') as errors
      from scoped
    ),
    play_counts as (
      select count(*) as plays, count(*) filter (where completed) as completed_plays, avg(watched_percent) as average_watch_percent
      from plays
    )
    select
      session_counts.sessions::int as sessions,
      event_counts.unique_viewers::int as unique_viewers,
      play_counts.plays::int as plays,
      session_counts.sessions_with_play::int as sessions_with_play,
      play_counts.completed_plays::int as completed_plays,
      play_counts.average_watch_percent::float8 as average_watch_percent,
      event_counts.cta_clicks::int as cta_clicks,
      session_counts.sessions_with_play_and_cta_click::int as sessions_with_play_and_cta_click,
      event_counts.autoplay_failures::int as autoplay_failures,
      event_counts.errors::int as errors
    from session_counts, event_counts, play_counts`,
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
