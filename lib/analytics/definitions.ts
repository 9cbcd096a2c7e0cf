/*
 * Analytics definitions: what every number in GET /api/Projects/{projectId}/analytics means.
 * The rollups (./rollups) and the raw-event reference queries the tests check them against
 * (testing/oracles/analytics-raw) follow these exactly; change a definition here first.
 *
 * Source. The API answers from rollups (lib/analytics/rollups), which a job keeps up to date
 * from analytics_events; a report never runs the job itself: it adds the small tail of events
 * not rolled up yet from analytics_events, and says how recent it is (asOf, pendingEvents).
 *
 * Scope. A report covers one project and whole UTC days: its window [from, to) widens to
 * them (from down to its day's midnight, to up to the next), and the answer's `window` says so.
 * Events that enrichment classified as bots (is_bot) count only in excluded.botEvents. The
 * filters (channel, templateId, templateVersion, deviceType, country) keep what happened with
 * those values; a missing value is "unknown", which the filter can select.
 *
 * Attribution. A session belongs to the UTC day and filter values of its first session.started
 * event, with everything it did (its plays, whether any play, any CTA click); a play to the day
 * and values of its first video.played, with how far it got and whether it completed; a
 * cta.clicked, autoplay.failed or video.errored event to its own day and values. So a session
 * that starts before midnight and plays after counts its play on the next day and is one of the
 * previous day's sessions with a play; each number of a window is the sum of its days'.
 *
 * A play is one (session_id, playback_id) pair with at least one video.played (playback_id
 * not null). A playback that resumes after a pause emits video.played again and is still one play.
 *
 * - sessions             distinct session_id with a session.started.
 * - uniqueViewers        distinct coalesce(viewer_hash, session_id) of those sessions: exact up
 *                        to 256 viewers, then a HyperLogLog estimate (standard error ~1.6 %;
 *                        rollups/viewer-sketch.ts), and never more than sessions.
 * - plays                number of plays.
 * - sessionsWithPlay     sessions (as above) that have at least one play, whenever it started.
 * - playRate             sessionsWithPlay / sessions.
 * - completedPlays       plays with a video.completed.
 * - completionRate       completedPlays / plays.
 * - averageWatchPercent  mean over plays of the highest percent the play reached: 100 if it
 *                        completed, else the highest percent of its video.progressed and
 *                        video.incomplete events, else 0. Percentages outside 0–100 are clamped.
 * - ctaClicks            number of cta.clicked events.
 * - sessionsWithPlayAndCtaClick  sessionsWithPlay that also have at least one cta.clicked.
 * - ctr                  sessionsWithPlayAndCtaClick / sessionsWithPlay: the numerator is taken
 *                        within the denominator so the rate never exceeds 1.
 * - autoplayFailures     number of autoplay.failed events.
 * - errors               number of video.errored events.
 *
 * Quartile funnel, over plays: a play reached 25, 50 or 75 when it has a video.progressed with
 * percent ≥ that quartile, or a video.completed (the player emits only the highest quartile it
 * newly crosses, so a higher one implies the lower ones, and completion implies all three); it
 * reached 100 when it has a video.completed. video.incomplete does not count here. Each step
 * is a count and its share of plays.
 *
 * Rates and averages whose denominator is 0 are null (never NaN or 0). They are plain
 * fractions (0.75, not 75), except averageWatchPercent, which is a percent (0–100).
 *
 * Breakdowns, by day (UTC date of occurred_at), channel, template version, device type,
 * browser, OS, referrer host and country; a missing or empty value is the key "unknown". Each row is
 * {key, sessions, plays, completions, ctaClicks}:
 * - a session counts under the key of its first session.started event;
 * - a play counts under the key of its first video.played event, and is a completion there
 *   when it has a video.completed (anywhere in scope);
 * - a cta.clicked event counts under its own key;
 * so a column summed over a dimension's rows equals the summary total. Rows are ordered by
 * sessions, then plays (both descending), then key; at most maxBreakdownKeys of them. The day
 * breakdown instead lists every UTC date the window touches, oldest first, zero-filled.
 *
 * - series               the same four columns keyed by time bucket instead of a dimension:
 *                        every UTC hour (granularity hour) or UTC day (granularity day) the
 *                        window touches, oldest first, zero-filled, so each column sums to
 *                        the summary total like a breakdown. Default granularity: hour when
 *                        the window touches at most 2 UTC days, else day; hour is refused
 *                        past maxHourlyWindowDays.
 * - previous             the summary over the period of equal length just before `from`
 *                        ([from - (to - from), from)), with the same filters.
 * - chapters             per chapter_id of chapter.entered events: sessions = sessions that
 *                        entered it (on the day and values of their first entry), plays =
 *                        plays (as above) with a chapter.entered of that chapter and playback,
 *                        share = plays / the summary's plays. chapterName is the newest name. Ordered
 *                        by the lowest position_ms it was entered at, then chapterId; at most
 *                        maxBreakdownKeys.
 * - excluded.botEvents   bot events of the window and filters (each on its own day and
 *                        values): the events the report left out.
 *
 * Heatmap (GET …/analytics/heatmap, one template): the spans of payload.watched
 * ([[fromMs, toMs], …]) of the video.paused, video.completed and video.incomplete events of
 * each play (as above: on its first video.played's day and values). A span with fromMs ≥ toMs
 * is ignored; fromMs below 0 counts from 0; the timeline ends at the duration (a later drop-off
 * counts in its last second). A span covers second s when it overlaps [s·1000, (s+1)·1000).
 * - durationMs           from the template: (out point − in point) / frame rate of its Lottie
 *                        file; null when unknown (a Raster template's video), and the timeline
 *                        then ends at the furthest watched millisecond.
 * - plays                plays with at least one span.
 * - (every count below is over the seconds of the timeline only)
 * - watchedPlays (per s) plays with a span covering s; share = watchedPlays / plays.
 * - views (per s)        spans covering s, over all plays; rewatches = views − watchedPlays.
 * - dropOffs (per s)     plays without a video.completed whose furthest watched millisecond
 *                        (the greatest toMs − 1) falls in s.
 *
 * Quarantine (GET …/analytics/quarantine): events refused by the v1 schema (422) in batches
 * that carried a valid ingest token of the project, and events of accepted batches left unstored
 * because their token names no template and the project does not have the one they name
 * (reasons `template_id: …`, `template_version: …`), counted per reason by the UTC hour they
 * were received in (a window selects whole hours: those starting in [from, to)). An event with
 * several errors counts once under each distinct reason; a reason is the error's field path
 * within the event (slash-separated) and message. Errors of the batch itself (sent_at, events)
 * count once per batch. Samples: the newest refused events of the project (at most
 * quarantineSamplesKept are kept; the report lists at most quarantineSamplesListed in the window).
 */

export const maxWindowDays = 366;
export const defaultWindowDays = 30;
/** More keys than any dimension has in practice (250 countries); bounds what a client-supplied value can do. */
export const maxBreakdownKeys = 500;

/** Hourly series cover at most this many days (744 points); longer windows take granularity day. */
export const maxHourlyWindowDays = 31;
/** A window touching at most this many UTC days defaults to an hourly series. */
export const hourlyDefaultMaxDays = 2;

export const seriesGranularities = ["hour", "day"] as const;
export type SeriesGranularity = (typeof seriesGranularities)[number];

const bucketMs: Record<SeriesGranularity, number> = { hour: 60 * 60 * 1000, day: 24 * 60 * 60 * 1000 };

/** The ISO starts of the UTC hours or days [from, to) touches, oldest first: a series' points. */
export function seriesBuckets(from: Date, to: Date, granularity: SeriesGranularity): string[] {
  const size = bucketMs[granularity];
  const starts: string[] = [];
  for (let start = Math.floor(from.getTime() / size) * size; start < to.getTime(); start += size) starts.push(new Date(start).toISOString());
  return starts;
}

/** Refused events kept per project (newest first), and listed by one report. */
export const quarantineSamplesKept = 200;
export const quarantineSamplesListed = 50;
/** A sample's envelope is cut to this many characters of JSON. */
export const quarantineSampleMaxChars = 4096;

export const funnelQuartiles = [25, 50, 75, 100] as const;
export type FunnelQuartile = (typeof funnelQuartiles)[number];

export const breakdownDimensions = ["day", "channel", "templateVersion", "deviceType", "browser", "os", "referrerHost", "country"] as const;
export type BreakdownDimension = (typeof breakdownDimensions)[number];

/** The key a missing dimension value is reported under. */
export const unknownKey = "unknown";

/** numerator / denominator, or null when the denominator is 0. */
export function rate(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}
