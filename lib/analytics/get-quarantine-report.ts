import { sql } from "drizzle-orm";
import { projectVerb } from "@/lib/services/verbs";
import { maxBreakdownKeys, quarantineSamplesListed } from "./definitions";
import type { QuarantineQuery, QuarantineReport } from "./contract";
import { selectRows } from "./select-rows";

type ReasonRow = { reason: string; count: number };
type SampleRow = { received_at: string | Date; reason: string; event: string };

/**
 * GET /api/Projects/{projectId}/analytics/quarantine: what ingest refused of the project's
 * events in the window (the v1 schema, or a template the project does not have), by reason, and the
 * newest refused events (definitions.ts).
 */
export const getQuarantineReport = projectVerb("analytics.read", async ({ db, access: { project } }, { from, to }: QuarantineQuery): Promise<QuarantineReport> => {
  const reasons = await selectRows<ReasonRow>(
    db,
    sql`select reason, sum(count)::int8 as count from analytics_quarantine_counts
    where project_id = ${project.id}::uuid and hour >= ${from.toISOString()}::timestamptz and hour < ${to.toISOString()}::timestamptz
    group by reason
    order by count desc, reason collate "C"
    limit ${maxBreakdownKeys}`,
  );
  const samples = await selectRows<SampleRow>(
    db,
    sql`select received_at, reason, event from analytics_quarantine_samples
    where project_id = ${project.id}::uuid and received_at >= ${from.toISOString()}::timestamptz and received_at < ${to.toISOString()}::timestamptz
    order by id desc
    limit ${quarantineSamplesListed}`,
  );
  return {
    window: { from: from.toISOString(), to: to.toISOString() },
    reasons: reasons.map((row) => ({ reason: row.reason, count: Number(row.count) })),
    samples: samples.map((row) => ({ receivedAt: new Date(row.received_at).toISOString(), reason: row.reason, event: storedEvent(row.event) })),
  };
});

/** The envelope back as JSON, or the cut text (no longer JSON) when it was longer than quarantineSampleMaxChars. */
function storedEvent(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
