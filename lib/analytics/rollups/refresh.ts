import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { selectRows } from "../select-rows";
import { dailyCounters, type DailyDelta, type Facts } from "./contribution";
import { cubeKeyText, mergeIntoRow, type CubeKey, type DailyRow } from "./cube";
import { cursorOf, parseHourlyKey, preferOrderedIndexScans, readPendingChange } from "./pending";

// The rollup job: brings analytics_daily_rollups and analytics_hourly_rollups up to date with
// analytics_events, project by project. A project's cursor is a transaction id: every event
// stored by a transaction below the oldest one still running is committed (or gone for good),
// so nothing can appear below a cursor after it has moved. Each chunk is one transaction: it
// reads one project's next events (pending.ts computes what they change), writes the change and
// moves that project's cursor. The job takes the projects with events pending in turn, a chunk
// each, so one project's backlog holds another's events back by one chunk at most. One process
// at a time runs it (an advisory lock); the server runs it off its request loop (rollup-job.ts).

/** Any constant works; it only has to be the same for every process of this database. */
export const rollupLockId = 720_114_235;
/** Chunks are sized to take about this long, so the lock and a transaction are never held for long. */
const chunkTargetMs = 1_000;
const chunkBounds = { first: 10_000, min: 1_000, max: 100_000 };
/** Rollup rows written per statement. */
const rowsPerStatement = 1_000;

export type RefreshResult = { events: number; sessions: number; chunks: number; rows: number; stale: boolean };

/** Where the job stands after a round: projects with events pending and the oldest such event's receipt. */
export type RollupProgress = { pendingProjects: number; oldestPendingAt: Date | null };

export type RefreshOptions = {
  /** Events per chunk; by default sized by time (about chunkTargetMs a chunk). */
  chunkEvents?: number;
  /** How long to wait for another process's chunk before answering `stale`. */
  waitMs?: number;
  /** Called before each round with what is pending (the job's lag). */
  onProgress?: (progress: RollupProgress) => void;
  /** Once aborted, no further chunk starts. */
  signal?: AbortSignal;
};

/**
 * Rolls up every event committed so far, a round at a time: each round takes one chunk from each
 * project with events pending. `stale` is true when another process held the job for longer
 * than `waitMs`: the rollups are then as recent as that process makes them.
 */
export async function refreshRollups(db: Db, { chunkEvents, waitMs = 5_000, onProgress, signal }: RefreshOptions = {}): Promise<RefreshResult> {
  const result: RefreshResult = { events: 0, sessions: 0, chunks: 0, rows: 0, stale: false };
  let size = chunkEvents ?? chunkBounds.first;
  for (;;) {
    const pending = await pendingProjects(db);
    onProgress?.({
      pendingProjects: pending.length,
      oldestPendingAt: pending.length === 0 ? null : new Date(Math.min(...pending.map((project) => Number(project.oldest_received_ms)))),
    });
    if (pending.length === 0) return result;
    for (const { project_id: projectId } of pending) {
      if (signal?.aborted) return result;
      const started = performance.now();
      const chunk = await db
        .transaction(async (tx) => {
          await tx.execute(sql.raw(`set local lock_timeout = '${Math.max(1, Math.round(waitMs))}ms'`));
          await tx.execute(sql`select pg_advisory_xact_lock(${rollupLockId})`);
          return rollUpChunk(tx, projectId, size);
        })
        .catch((error: unknown) => {
          // lock_not_available: another process is at it. drizzle wraps the driver's error in its own.
          if (hasErrorCode(error, "55P03") || hasErrorCode((error as { cause?: unknown }).cause, "55P03")) return "stale" as const;
          throw error;
        });
      if (chunk === "stale") return { ...result, stale: true };
      if (chunk === null) continue;
      result.events += chunk.events;
      result.sessions += chunk.sessions;
      result.rows += chunk.rows;
      result.chunks++;
      if (chunkEvents === undefined && chunk.events >= size / 2) size = nextChunkSize(size, performance.now() - started);
    }
  }
}

/** The next chunk's size: scaled toward chunkTargetMs, at most doubling or halving at once. */
function nextChunkSize(size: number, elapsedMs: number): number {
  const scale = Math.min(2, Math.max(0.5, chunkTargetMs / Math.max(elapsedMs, 1)));
  return Math.round(Math.min(chunkBounds.max, Math.max(chunkBounds.min, size * scale)));
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

/**
 * The projects with events the job may roll up now, in id order, each with its oldest such
 * event's receipt: one probe of the (project_id, xid) index per project.
 */
async function pendingProjects(db: Db): Promise<{ project_id: string; oldest_received_ms: number }[]> {
  return db.transaction(async (tx) => {
    await preferOrderedIndexScans(tx);
    return selectRows(
    tx,
    sql`with horizon as materialized (${oldestTransactionHere} as below)
    select p.id::text as project_id, first.received_ms as oldest_received_ms
    from projects p
    left join analytics_rollup_cursors c on c.project_id = p.id
    cross join horizon
    cross join lateral (
      select extract(epoch from e.received_at)::float8 * 1000 as received_ms from analytics_events e
      where e.project_id = p.id and e.xid >= coalesce(c.processed_before, '0'::xid8) and e.xid < horizon.below
      order by e.xid limit 1) first
    order by p.id`,
    );
  });
}

/** One chunk of one project: null when it had nothing to roll up. */
async function rollUpChunk(tx: Db, projectId: string, size: number): Promise<{ events: number; sessions: number; rows: number } | null> {
  const [state] = await selectRows<{ cursor: string; horizon: string }>(
    tx,
    sql`select (${cursorOf(projectId)})::text as cursor, (${oldestTransactionHere})::text as horizon`,
  );
  const cursor = BigInt(state!.cursor);
  const horizon = BigInt(state!.horizon);
  if (cursor >= horizon) return null;
  const change = await readPendingChange(tx, { projectId, cursor, below: horizon, limit: size });
  if (!change) return null;
  const rows = await writeCube(tx, change.cube);
  await writeHourly(tx, change.hourly);
  await tx.execute(sql`insert into analytics_rollup_cursors (project_id, processed_before, newest_received_at)
    values (${projectId}::uuid, ${change.end.toString()}::xid8, ${change.newestReceivedAt}::timestamptz)
    on conflict (project_id) do update set processed_before = excluded.processed_before,
      newest_received_at = greatest(analytics_rollup_cursors.newest_received_at, excluded.newest_received_at)`);
  return { events: change.events, sessions: change.sessions, rows };
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
    const { projectId, hourMs, values } = parseHourlyKey(key);
    const [channel, templateId, templateVersion, deviceType, country] = values;
    return { project_id: projectId, hour: new Date(hourMs).toISOString(), channel, template_id: templateId, template_version: templateVersion, device_type: deviceType, country, sessions, plays, completions, cta_clicks: ctaClicks };
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
