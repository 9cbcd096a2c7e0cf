/*
 * Analytics definitions: what every number in GET /api/Projects/{projectId}/analytics means.
 * The queries in ./queries follow these exactly; change a definition here first.
 *
 * Scope. Every query reads only analytics_events of one project (project_id), with
 * occurred_at in [from, to) (from inclusive, to exclusive), and, when given, channel = the
 * channel filter and template_id = the templateId filter. Each event counts by its own
 * occurred_at: a session that started before `from` contributes its in-window plays and
 * clicks but is not one of the window's sessions.
 *
 * A play is one (session_id, playback_id) pair with at least one video.played (playback_id
 * not null). A playback that resumes after a pause emits video.played again and is still one play.
 *
 * - sessions             distinct session_id with a session.started.
 * - uniqueViewers        distinct coalesce(viewer_hash, session_id) over those session.started events.
 * - plays                number of plays.
 * - sessionsWithPlay     sessions (as above) that have at least one play.
 * - playRate             sessionsWithPlay / sessions.
 * - completedPlays       plays with a video.completed.
 * - completionRate       completedPlays / plays.
 * - averageWatchPercent  mean over plays of the highest percent the play reached: 100 if it
 *                        completed, else the highest percent of its video.progressed and
 *                        video.incomplete events, else 0. Percentages outside 0–100 are clamped.
 * - ctaClicks            number of cta.clicked events.
 * - sessionsWithPlayAndCtaClick  sessionsWithPlay that also have at least one cta.clicked.
 * - ctr                  sessionsWithPlayAndCtaClick / sessionsWithPlay: the numerator is taken
 *                        within the denominator so the rate never exceeds 1 (a click whose play
 *                        fell before the window does not count).
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
 * browser and country; a missing or empty value is the key "unknown". Each row is
 * {key, sessions, plays, completions, ctaClicks}:
 * - a session counts under the key of its first session.started event;
 * - a play counts under the key of its first video.played event, and is a completion there
 *   when it has a video.completed (anywhere in scope);
 * - a cta.clicked event counts under its own key;
 * so a column summed over a dimension's rows equals the summary total. Rows are ordered by
 * sessions, then plays (both descending), then key; at most maxBreakdownKeys of them. The day
 * breakdown instead lists every UTC date the window touches, oldest first, zero-filled.
 */

export const maxWindowDays = 366;
export const defaultWindowDays = 30;
/** More keys than any dimension has in practice (250 countries); bounds what a client-supplied value can do. */
export const maxBreakdownKeys = 500;

export const funnelQuartiles = [25, 50, 75, 100] as const;
export type FunnelQuartile = (typeof funnelQuartiles)[number];

export const breakdownDimensions = ["day", "channel", "templateVersion", "deviceType", "browser", "country"] as const;
export type BreakdownDimension = (typeof breakdownDimensions)[number];

/** The key a missing dimension value is reported under. */
export const unknownKey = "unknown";

/** numerator / denominator, or null when the denominator is 0. */
export function rate(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}
