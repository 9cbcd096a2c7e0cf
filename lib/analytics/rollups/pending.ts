import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { selectRows } from "../select-rows";
import { contributionOf, type Contribution, type DailyDelta, type Facts, type RollupEvent } from "./contribution";
import { addDaily, addToCube, diff, type CubeKey } from "./cube";

// What a project's events above its cursor change in the rollups, computed in memory. The job
// (refresh.ts) writes it and moves the cursor; a report (get-project-analytics.ts) adds it to
// what it reads, so its numbers are right at the moment of the answer without waiting for the job.
//
// A session's events may straddle the cursor: its change is the contribution of all its events
// read minus that of those below the cursor (already rolled up), so nothing counts twice.

/** A change to the cube's daily rows and to the hourly rows, keyed as the tables are. */
export type RollupChange = {
  cube: Map<string, { key: CubeKey; delta: DailyDelta }>;
  /** `${projectId}|${hour ms}|${combination}` → facts. */
  hourly: Map<string, Facts>;
};

/** An hourly key's parts: its project, its hour (ms) and its five filter values in rollup key order. */
export function parseHourlyKey(key: string): { projectId: string; hourMs: number; values: string[] } {
  const [projectId, hourMs] = key.split("|", 2) as [string, string];
  return { projectId, hourMs: Number(hourMs), values: key.slice(projectId.length + hourMs.length + 2).split("\u0001") };
}

export type PendingChange = RollupChange & {
  /** Events read above the cursor. */
  events: number;
  sessions: number;
  /** The transaction id the change reaches (exclusive): the cursor's next value. */
  end: bigint;
  /** received_at of the newest event read, ISO text. */
  newestReceivedAt: string;
};

/** The project's cursor: the transaction id below which its events are in the rollups ('0' before any). */
export const cursorOf = (projectId: string): SQL =>
  sql`coalesce((select processed_before from analytics_rollup_cursors where project_id = ${projectId}::uuid), '0'::xid8)`;

/** The events whose payload the rollups read (percent, watched spans, chapter): the others' payloads are not sent. */
const payloadEventTypes = ["video.progressed", "video.incomplete", "video.completed", "video.paused", "chapter.entered"];

const eventColumns = sql`e.xid::text as xid, e.event_id::text as event_id, e.event_type,
  extract(epoch from e.occurred_at)::float8 * 1000 as occurred_ms, e.session_id, e.playback_id, e.viewer_hash, e.channel,
  e.template_id, e.template_version, e.device ->> 'type' as device_type, e.device ->> 'browser' as browser, e.device ->> 'os' as os,
  e.geo ->> 'country' as country, e.referrer_host, e.is_bot,
  case when e.event_type in (${sql.join(payloadEventTypes.map((type) => sql`${type}`), sql`, `)}) then e.payload else '{}'::jsonb end as payload`;

type EventRow = RollupEvent & { xid: string };

/**
 * For the rest of the caller's transaction: no bitmap scans. "A project's first N events above its
 * cursor" is an ordered walk of the (project_id, xid) index that stops after N; but without fresh
 * statistics (autovacuum off, a table just loaded) the planner guesses a few rows, and a bitmap scan
 * of the whole backlog and a sort look cheaper: every chunk would then read everything pending.
 */
export async function preferOrderedIndexScans(tx: Db): Promise<void> {
  await tx.execute(sql`set local enable_bitmapscan = off`);
}

type Row = EventRow & { received_ms: number };

/**
 * The change made by the project's first `limit` events (in transaction order) at or above
 * `cursor` and below `below` (no bound when null: all the snapshot sees), or null when there are
 * none. A transaction is taken whole: the change ends before the last transaction read, unless
 * that one is all it read (then it is read whole, whatever its size).
 */
export async function readPendingChange(
  db: Db,
  { projectId, cursor, below, limit, masks }: { projectId: string; cursor: bigint; below: bigint | null; limit: number; masks?: readonly number[] },
): Promise<PendingChange | null> {
  const upper = below === null ? sql`` : sql`and e.xid < ${below.toString()}::xid8`;
  await preferOrderedIndexScans(db);
  const columns = sql`${eventColumns}, extract(epoch from e.received_at)::float8 * 1000 as received_ms`;
  // (The alias must not shadow the column in ORDER BY: ordered as text, the scan would sort the
  // whole backlog, and transaction ids gaining a digit would come out of order.)
  let rows = await selectRows<Row>(
    db,
    sql`select ${columns} from analytics_events e
    where e.project_id = ${projectId}::uuid and e.xid >= ${cursor.toString()}::xid8 ${upper}
    order by e.xid limit ${limit}`,
  );
  if (rows.length === 0) return null;
  let end = below;
  if (rows.length === limit) {
    const last = rows.at(-1)!.xid;
    end = BigInt(last);
    if (rows[0]!.xid === last) {
      rows = await selectRows<Row>(db, sql`select ${columns} from analytics_events e where e.project_id = ${projectId}::uuid and e.xid = ${last}::xid8`);
      end += 1n;
    } else rows = rows.filter((row) => row.xid !== last);
  }

  // Sessions' changes are summed per day and combination first, then spread over the cube once.
  const change: RollupChange = { cube: new Map(), hourly: new Map() };
  const daily = new Map<string, DailyDelta>();
  const bySession = new Map<string, EventRow[]>();
  let newestMs = -Infinity;
  for (const row of rows) {
    newestMs = Math.max(newestMs, Number(row.received_ms));
    if (row.session_id === null) addContribution(daily, change, projectId, contributionOf([row]));
    else {
      const known = bySession.get(row.session_id);
      if (known) known.push(row);
      else bySession.set(row.session_id, [row]);
    }
  }
  if (bySession.size > 0) {
    // The sessions' earlier events, already rolled up: what they contributed is taken back, and
    // the whole session's contribution added, so a session split across chunks counts once.
    const earlier = await selectRows<EventRow>(
      db,
      sql`select ${eventColumns} from analytics_events e
      where e.project_id = ${projectId}::uuid and e.session_id in (select jsonb_array_elements_text(${JSON.stringify([...bySession.keys()])}::jsonb))
        and e.xid < ${cursor.toString()}::xid8`,
    );
    const before = new Map<string, EventRow[]>();
    for (const event of earlier) {
      const known = before.get(event.session_id!);
      if (known) known.push(event);
      else before.set(event.session_id!, [event]);
    }
    for (const [sessionId, fresh] of bySession) {
      const old = before.get(sessionId);
      addContribution(daily, change, projectId, old ? diff(contributionOf([...old, ...fresh]), contributionOf(old)) : contributionOf(fresh));
    }
  }
  for (const [dailyKey, delta] of daily) addToCube(change.cube, projectId, dailyKey, delta, masks);
  const reached = end ?? rows.reduce((max, row) => (BigInt(row.xid) > max ? BigInt(row.xid) : max), 0n) + 1n;
  return { ...change, events: rows.length, sessions: bySession.size, end: reached, newestReceivedAt: new Date(newestMs).toISOString() };
}

/** Sums a contribution into a chunk's daily deltas (by `${day}|${combination}`) and hourly facts. */
function addContribution(daily: Map<string, DailyDelta>, change: RollupChange, projectId: string, contribution: Contribution): void {
  for (const [dailyKey, delta] of contribution.daily) {
    const known = daily.get(dailyKey);
    if (known) addDaily(known, delta);
    else daily.set(dailyKey, delta);
  }
  for (const [hourKey, facts] of contribution.hourly) {
    const key = `${projectId}|${hourKey}`;
    const known = change.hourly.get(key);
    if (known) facts.forEach((value, i) => (known[i]! += value));
    else change.hourly.set(key, [...facts]);
  }
}

/** Events a report rolls up itself, at most, beyond the job's cursor (about a quarter of a second's work). */
export const reportTailEvents = 10_000;
/** Pending events are counted up to this many (a count of a longer backlog says "at least"): counting is a scan. */
export const pendingCountCap = 100_000;

export type ReportTail = {
  /** The change of the events not yet rolled up that the report includes; null when there are none. */
  change: RollupChange | null;
  /** received_at of the newest event the report includes, ISO; null when the project has none. */
  asOf: string | null;
  /** Events stored but not included: beyond the tail, left to the job. */
  pendingEvents: number;
};

/**
 * What a report adds to the rollups it reads, in its own transaction (so the two agree): the
 * change of the project's first reportTailEvents events above its cursor (to the cube `masks` the
 * report reads: by default all), and how fresh that makes it. A report never writes: the job
 * alone moves cursors.
 */
export async function readReportTail(db: Db, projectId: string, { limit = reportTailEvents, masks }: { limit?: number; masks?: readonly number[] } = {}): Promise<ReportTail> {
  const [state] = await selectRows<{ cursor: string; newest_ms: number | null }>(
    db,
    sql`select (${cursorOf(projectId)})::text as cursor,
      (select extract(epoch from newest_received_at)::float8 * 1000 from analytics_rollup_cursors where project_id = ${projectId}::uuid) as newest_ms`,
  );
  const rolledUpMs = state!.newest_ms === null ? null : Number(state!.newest_ms);
  const change = await readPendingChange(db, { projectId, cursor: BigInt(state!.cursor), below: null, limit, masks });
  if (!change) return { change: null, asOf: rolledUpMs === null ? null : new Date(rolledUpMs).toISOString(), pendingEvents: 0 };
  const [rest] = await selectRows<{ count: string | number }>(
    db,
    sql`select count(*) as count from (select 1 from analytics_events e
      where e.project_id = ${projectId}::uuid and e.xid >= ${change.end.toString()}::xid8 limit ${pendingCountCap}) pending`,
  );
  const newestMs = Math.max(rolledUpMs ?? -Infinity, Date.parse(change.newestReceivedAt));
  return { change, asOf: new Date(newestMs).toISOString(), pendingEvents: Number(rest!.count) };
}
