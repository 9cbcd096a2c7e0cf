import { sql } from "drizzle-orm";
import type { Permitted } from "@/lib/services/verbs";
import { selectRows } from "@/lib/analytics/select-rows";

// A campaign's funnel, recipient by recipient, from the raw events their viewer_hash carries
// (the index analytics_events(project_id, viewer_hash)). The steps read as the dashboard's
// (lib/analytics/definitions.ts), counted in recipients instead of sessions or plays: opened =
// a session.started; played = a video.played; reached 25/50/75 = a video.progressed with
// percent ≥ that quartile, or a video.completed; completed = a video.completed; clicked = a
// cta.clicked. Bot events (is_bot) are left out, as everywhere.

export type CampaignFunnel = {
  recipients: number;
  opened: number;
  played: number;
  reached25: number;
  reached50: number;
  reached75: number;
  completed: number;
  clicked: number;
};

/** Per viewer_hash of the campaign's recipients: what their events show. Shared with the recipients page. */
export const reachOfEvents = sql`
  bool_or(e.event_type = 'session.started') as opened,
  bool_or(e.event_type = 'video.played') as played,
  bool_or(e.event_type = 'video.completed') as completed,
  bool_or(e.event_type = 'cta.clicked') as clicked,
  coalesce(max(least(greatest((e.payload->>'percent')::float8, 0), 100)) filter (where e.event_type = 'video.progressed'), 0) as quartile,
  coalesce(max(least(greatest((e.payload->>'percent')::float8, 0), 100)) filter (where e.event_type in ('video.progressed', 'video.incomplete')), 0) as furthest`;

export async function getCampaignFunnel({ db }: Permitted<"campaign.read">, campaign: { id: string; projectId: string }): Promise<CampaignFunnel> {
  const [row] = await selectRows<Record<keyof CampaignFunnel, number | string>>(
    db,
    sql`
      with reach as (
        select e.viewer_hash, ${reachOfEvents}
        from campaign_recipients r
        join analytics_events e on e.project_id = r.project_id and e.viewer_hash = r.viewer_hash
        where r.campaign_id = ${campaign.id} and r.project_id = ${campaign.projectId} and not e.is_bot
        group by e.viewer_hash
      )
      select
        (select count(*) from campaign_recipients where campaign_id = ${campaign.id}) as recipients,
        count(*) filter (where opened) as opened,
        count(*) filter (where played) as played,
        count(*) filter (where completed or quartile >= 25) as reached25,
        count(*) filter (where completed or quartile >= 50) as reached50,
        count(*) filter (where completed or quartile >= 75) as reached75,
        count(*) filter (where completed) as completed,
        count(*) filter (where clicked) as clicked
      from reach`,
  );
  const number = (key: keyof CampaignFunnel) => Number(row?.[key] ?? 0);
  return {
    recipients: number("recipients"),
    opened: number("opened"),
    played: number("played"),
    reached25: number("reached25"),
    reached50: number("reached50"),
    reached75: number("reached75"),
    completed: number("completed"),
    clicked: number("clicked"),
  };
}
