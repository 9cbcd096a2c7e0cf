import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { startPeriodicTask, type PeriodicTask } from "@/lib/server/periodic-task";
import { selectRows } from "../select-rows";
import { contributionOf, dailyCounters, type Contribution, type DailyDelta, type Facts, type RollupEvent } from "./contribution";
import { addToCube, cubeKeyText, diff, mergeIntoRow, type CubeKey, type DailyRow } from "./cube";

// The rollup job: brings analytics_daily_rollups and analytics_hourly_rollups up to date with
// analytics_events. Its cursor is a transaction id: every event stored by a transaction below
// the oldest one still running is committed (or gone for good), so nothing can appear below
// the cursor after it has moved. Each chunk of new events is one transaction: it reads all
// events of the sessions the chunk touches, adds their contribution and subtracts what their
// events already rolled up contributed, and moves the cursor. One process at a time runs it
// (an advisory lock); a report runs it before reading, and the server every few seconds.

/** Any constant works; it only has to be the same for every process of this database. */
const rollupLockId = 720_114_235;
/** Events read per chunk (a transaction of one xid is read whole, whatever its size). */
const defaultChunkEvents = 20_000;
/** How long a report waits for batches being stored when it was asked (refreshRollups' settleMs). */
export const reportSettleMs = 2_000;
/** Rollup rows written per statement. */
const rowsPerStatement = 1_000;

export type RefreshResult = { events: number; sessions: number; chunks: number; rows: number; stale: boolean };

/**
 * Rolls up every event committed so far. `stale` is true when another process held the job for
 * longer than `waitMs`: the rollups are then as recent as that process makes them. With
 * `settleMs`, it first waits (that long at most) for the transactions running when it was called
 * to end: the job cannot pass one still open, so without the wait an event committed just
 * before a report could miss it because some other batch was being stored at that moment.
 */
export async function refreshRollups(db: Db, { chunkEvents = defaultChunkEvents, waitMs = 5_000, settleMs = 0 } = {}): Promise<RefreshResult> {
  const result: RefreshResult = { events: 0, sessions: 0, chunks: 0, rows: 0, stale: false };
  if (settleMs > 0) await waitForRunningTransactions(db, settleMs);
  for (;;) {
    const chunk = await db
      .transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = '${Math.max(1, Math.round(waitMs))}ms'`));
        await tx.execute(sql`select pg_advisory_xact_lock(${rollupLockId})`);
        return rollUpChunk(tx, chunkEvents);
      })
      .catch((error: unknown) => {
        // lock_not_available: another process is at it. drizzle wraps the driver's error in its own.
        if (hasErrorCode(error, "55P03") || hasErrorCode((error as { cause?: unknown }).cause, "55P03")) return "stale" as const;
        throw error;
      });
    if (chunk === "stale") return { ...result, stale: true };
    if (chunk === null) return result;
    result.events += chunk.events;
    result.sessions += chunk.sessions;
    result.rows += chunk.rows;
    result.chunks++;
  }
}

/**
 * The oldest transaction that may still store events in this database: the snapshot's xmin,
 * except that transactions known to run in another database of the same server are passed over
 * (transaction ids are server-wide, so one long transaction elsewhere would otherwise hold the
 * job back). A transaction not found in pg_stat_activity or pg_prepared_xacts counts as this
 * database's: the cursor can only stay lower than needed, never pass an event.
 */
const oldestTransactionHere = sql`select coalesce(
  (select min(running) from pg_snapshot_xip(pg_current_snapshot()) as running
    where not exists (select 1 from pg_stat_activity a where a.backend_xid = running::xid and a.datname <> current_database())
      and not exists (select 1 from pg_prepared_xacts p where p.transaction = running::xid and p.database <> current_database())),
  pg_snapshot_xmax(pg_current_snapshot()))`;

/** Waits until every transaction running now has ended, polling, for `limitMs` at most. */
async function waitForRunningTransactions(db: Db, limitMs: number): Promise<void> {
  const [start] = await selectRows<{ xmax: string }>(db, sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`);
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    const [now] = await selectRows<{ settled: boolean }>(db, sql`select (${oldestTransactionHere}) >= ${start!.xmax}::xid8 as settled`);
    if (now?.settled) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The events whose payload the rollups read (percent, watched spans, chapter): the others' payloads are not sent. */
const payloadEventTypes = ["video.progressed", "video.incomplete", "video.completed", "video.paused", "chapter.entered"];

const eventColumns = sql`e.project_id::text as project_id, e.xid::text as xid, e.event_id::text as event_id, e.event_type,
  extract(epoch from e.occurred_at)::float8 * 1000 as occurred_ms, e.session_id, e.playback_id, e.viewer_hash, e.channel,
  e.template_id, e.template_version, e.device ->> 'type' as device_type, e.device ->> 'browser' as browser, e.device ->> 'os' as os,
  e.geo ->> 'country' as country, e.referrer_host, e.is_bot,
  case when e.event_type in (${sql.join(payloadEventTypes.map((type) => sql`${type}`), sql`, `)}) then e.payload else '{}'::jsonb end as payload`;

type EventRow = RollupEvent & { project_id: string; xid: string };
type ChunkKey = { project_id: string; session_id: string | null; xid: string };

/** One chunk: null when there was nothing to roll up. */
async function rollUpChunk(tx: Db, chunkEvents: number): Promise<{ events: number; sessions: number; rows: number } | null> {
  const [state] = await selectRows<{ cursor: string; horizon: string }>(
    tx,
    sql`select processed_before::text as cursor, (${oldestTransactionHere})::text as horizon from analytics_rollup_cursor`,
  );
  if (!state) throw new Error("analytics_rollup_cursor has no row (migration 0008 adds it)");
  const cursor = BigInt(state.cursor);
  const horizon = BigInt(state.horizon);
  if (cursor >= horizon) return null;

  // Which sessions the chunk touches, read narrow: their events are read whole below, once.
  // (The alias must not shadow the column in ORDER BY: ordered as text, the scan would sort the
  // whole backlog, and transaction ids gaining a digit would come out of order.)
  let keys = await selectRows<ChunkKey>(
    tx,
    sql`select e.project_id::text as project_id, e.session_id, e.xid::text as xid from analytics_events e
    where e.xid >= ${state.cursor}::xid8 and e.xid < ${state.horizon}::xid8
    order by e.xid limit ${chunkEvents}`,
  );
  if (keys.length === 0) {
    // Only the job's own transactions (or rolled-back ones) since the cursor: skip them.
    await tx.execute(sql`update analytics_rollup_cursor set processed_before = ${state.horizon}::xid8`);
    return null;
  }
  // The chunk ends before the last transaction it read, unless that one is all it read: then it is read whole.
  let end = horizon;
  if (keys.length === chunkEvents) {
    const last = keys.at(-1)!.xid;
    end = BigInt(last);
    if (keys[0]!.xid === last) {
      keys = await selectRows<ChunkKey>(
        tx,
        sql`select e.project_id::text as project_id, e.session_id, e.xid::text as xid from analytics_events e where e.xid = ${last}::xid8`,
      );
      end += 1n;
    } else keys = keys.filter((key) => key.xid !== last);
  }

  const change = { cube: new Map<string, { key: CubeKey; delta: DailyDelta }>(), hourly: new Map<string, Facts>() };
  const sessions = new Map<string, { projectId: string; sessionId: string }>();
  for (const { project_id: projectId, session_id: sessionId } of keys) {
    if (sessionId !== null) sessions.set(`${projectId}|${sessionId}`, { projectId, sessionId });
  }
  if (keys.length > sessions.size) {
    const sessionless = await selectRows<EventRow>(
      tx,
      sql`select ${eventColumns} from analytics_events e
      where e.xid >= ${state.cursor}::xid8 and e.xid < ${end.toString()}::xid8 and e.session_id is null`,
    );
    for (const event of sessionless) addChange(change, event.project_id, contributionOf([event]));
  }
  if (sessions.size > 0) {
    // Every event of those sessions rolled up once this chunk is done; those below the cursor already were.
    const sessionEvents = await selectRows<EventRow>(
      tx,
      sql`select ${eventColumns} from analytics_events e
      join jsonb_to_recordset(${JSON.stringify([...sessions.values()].map(({ projectId, sessionId }) => ({ p: projectId, s: sessionId })))}::jsonb)
        as touched(p uuid, s text) on e.project_id = touched.p and e.session_id = touched.s
      where e.xid < ${end.toString()}::xid8`,
    );
    const bySession = new Map<string, EventRow[]>();
    for (const event of sessionEvents) {
      const key = `${event.project_id}|${event.session_id}`;
      const known = bySession.get(key);
      if (known) known.push(event);
      else bySession.set(key, [event]);
    }
    for (const [key, all] of bySession) {
      const before = all.filter((event) => BigInt(event.xid) < cursor);
      addChange(change, sessions.get(key)!.projectId, diff(contributionOf(all), contributionOf(before)));
    }
  }

  const rows = await writeCube(tx, change.cube);
  await writeHourly(tx, change.hourly);
  await tx.execute(sql`update analytics_rollup_cursor set processed_before = ${end.toString()}::xid8`);
  return { events: keys.length, sessions: sessions.size, rows };
}

function addChange(change: { cube: Map<string, { key: CubeKey; delta: DailyDelta }>; hourly: Map<string, Facts> }, projectId: string, contribution: Contribution): void {
  for (const [dailyKey, delta] of contribution.daily) addToCube(change.cube, projectId, dailyKey, delta);
  for (const [hourKey, facts] of contribution.hourly) {
    const key = `${projectId}|${hourKey}`;
    const known = change.hourly.get(key);
    if (known) facts.forEach((value, i) => (known[i]! += value));
    else change.hourly.set(key, [...facts]);
  }
}

const keyColumns = ["project_id", "mask", "channel", "template_id", "template_version", "device_type", "country", "day"] as const;
const storedColumns = [...dailyCounters, "breakdowns", "chapters", "heatmap", "heatmap_furthest_ms", "viewers"] as const;

const keyJson = ({ key }: { key: CubeKey }) => {
  const [channel, templateId, templateVersion, deviceType, country] = key.values;
  return { project_id: key.projectId, mask: key.mask, channel, template_id: templateId, template_version: templateVersion, device_type: deviceType, country, day: key.day };
};

/** Merges the cube's changes into the stored rows (read, merge, write: the lock makes this job their only writer). */
async function writeCube(tx: Db, cube: Map<string, { key: CubeKey; delta: DailyDelta }>): Promise<number> {
  const entries = [...cube.values()];
  for (let start = 0; start < entries.length; start += rowsPerStatement) {
    const slice = entries.slice(start, start + rowsPerStatement);
    const stored = await selectRows<DailyRow & { project_id: string; mask: number; channel: string; template_id: string; template_version: string; device_type: string; country: string; day: string }>(
      tx,
      sql`select r.project_id::text as project_id, r.mask, r.channel, r.template_id, r.template_version, r.device_type, r.country,
        to_char(r.day, 'YYYY-MM-DD') as day, ${sql.raw(storedColumns.map((column) => `r.${column}`).join(", "))}
      from analytics_daily_rollups r
      join jsonb_to_recordset(${JSON.stringify(slice.map(keyJson))}::jsonb)
        as k(project_id uuid, mask smallint, channel text, template_id text, template_version text, device_type text, country text, day date)
        using (${sql.raw(keyColumns.join(", "))})`,
    );
    const byKey = new Map(
      stored.map((row) => [cubeKeyText({ projectId: row.project_id, mask: row.mask, values: [row.channel, row.template_id, row.template_version, row.device_type, row.country], day: row.day }), row]),
    );
    const rows = slice.map((entry) => {
      const row = mergeIntoRow(byKey.get(cubeKeyText(entry.key)), entry.delta);
      return { ...keyJson(entry), ...row, viewers: row.viewers ? Buffer.from(row.viewers).toString("base64") : null };
    });
    await tx.execute(sql`insert into analytics_daily_rollups (${sql.raw([...keyColumns, ...storedColumns].join(", "))})
      select ${sql.raw(keyColumns.join(", "))}, ${sql.raw(dailyCounters.join(", "))}, breakdowns, chapters, heatmap, heatmap_furthest_ms,
        decode(viewers, 'base64')
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        project_id uuid, mask smallint, channel text, template_id text, template_version text, device_type text, country text, day date,
        ${sql.raw(dailyCounters.map((name) => `${name} ${name === "watch_percent_sum" ? "float8" : "bigint"}`).join(", "))},
        breakdowns jsonb, chapters jsonb, heatmap jsonb, heatmap_furthest_ms float8, viewers text)
      on conflict (${sql.raw(keyColumns.join(", "))}) do update set
        ${sql.raw(storedColumns.map((column) => `${column} = excluded.${column}`).join(", "))}`);
  }
  return entries.length;
}

/** Adds the hourly changes (plain sums: no read needed). */
async function writeHourly(tx: Db, hourly: Map<string, Facts>): Promise<void> {
  const rows = [...hourly].map(([key, [sessions, plays, completions, ctaClicks]]) => {
    const [projectId, hourMs] = key.split("|", 2) as [string, string];
    const combination = key.slice(projectId.length + hourMs.length + 2);
    const [channel, templateId, templateVersion, deviceType, country] = combination.split("\u0001");
    return { project_id: projectId, hour: new Date(Number(hourMs)).toISOString(), channel, template_id: templateId, template_version: templateVersion, device_type: deviceType, country, sessions, plays, completions, cta_clicks: ctaClicks };
  });
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    await tx.execute(sql`insert into analytics_hourly_rollups (project_id, hour, channel, template_id, template_version, device_type, country, sessions, plays, completions, cta_clicks)
      select * from jsonb_to_recordset(${JSON.stringify(rows.slice(start, start + rowsPerStatement))}::jsonb) as r(
        project_id uuid, hour timestamptz, channel text, template_id text, template_version text, device_type text, country text,
        sessions bigint, plays bigint, completions bigint, cta_clicks bigint)
      on conflict (project_id, hour, channel, template_id, template_version, device_type, country) do update set
        sessions = analytics_hourly_rollups.sessions + excluded.sessions,
        plays = analytics_hourly_rollups.plays + excluded.plays,
        completions = analytics_hourly_rollups.completions + excluded.completions,
        cta_clicks = analytics_hourly_rollups.cta_clicks + excluded.cta_clicks`);
  }
}

/** How often the server rolls up new events (a report also does before reading). */
const rollupIntervalMs = 2_000;
const rollupRetryMs = 2_000;

/** Runs refreshRollups every few seconds on the process-wide database (lib/server/periodic-task.ts). */
export function startRollupJob(): PeriodicTask {
  return startPeriodicTask({
    name: "Analytics rollup job",
    run: async () => {
      await refreshRollups(await getDb());
      return undefined;
    },
    intervalMs: rollupIntervalMs,
    retryMs: rollupRetryMs,
  });
}
