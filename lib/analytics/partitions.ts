import { sql } from "drizzle-orm";
import { getConfig, type Config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db";
import { startPeriodicTask, type PeriodicTask } from "@/lib/jobs/periodic-task";
import { selectRows } from "./select-rows";

// analytics_events is partitioned by UTC month of occurred_at (drizzle/0007). Partitions are made
// ahead of the events that need them, and those past ANALYTICS_RETENTION_DAYS are dropped whole.
// Every name and bound comes from the catalog; identifiers go out quoted.

/** Partitions kept ready beyond the current month. */
const monthsAhead = 2;
/** Any constant, distinct from lib/db's migration lock: app and ingest processes sharing a database take turns. */
const maintenanceLockKey = 720_114_234;
/**
 * maintainEventPartitions' wait for a lock. Creating or dropping a partition locks the whole
 * table, and every insert would queue behind a drop waiting for a long report: past this it
 * gives up, and the scheduler tries again later.
 */
const lockTimeout = "3s";
const maintenanceIntervalMs = 6 * 60 * 60 * 1000;
const retryAfterFailureMs = 10 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

/** A range partition of analytics_events as the catalog describes it: rows with from ≤ occurred_at < to. */
export type EventPartition = { schema: string; name: string; from: Date; to: Date };

export type ExpiredEvents = { droppedPartitions: string[]; deletedDefaultRows: number };

export type PartitionMaintenanceResult = ExpiredEvents & { createdPartitions: string[] };

/** The range partitions of analytics_events, oldest first (the default partition has no range and is not listed). */
export async function listEventPartitions(db: Db): Promise<EventPartition[]> {
  const rows = await selectRows<{ schema: string; name: string; from_ms: number; to_ms: number }>(
    db,
    sql`with partitions as (
          select n.nspname as schema, c.relname as name,
            regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM [(]''([^'']*)''[)] TO [(]''([^'']*)''[)]') as bounds
          from pg_inherits i
          join pg_class c on c.oid = i.inhrelid
          join pg_namespace n on n.oid = c.relnamespace
          where i.inhparent = 'analytics_events'::regclass
        )
        select schema, name,
          (extract(epoch from bounds[1]::timestamptz) * 1000)::float8 as from_ms,
          (extract(epoch from bounds[2]::timestamptz) * 1000)::float8 as to_ms
        from partitions
        where bounds is not null
        order by bounds[1]::timestamptz`,
  );
  return rows.map((row) => ({ schema: row.schema, name: row.name, from: new Date(row.from_ms), to: new Date(row.to_ms) }));
}

/**
 * Makes the partitions of now's UTC month and the next two that do not exist yet, and returns
 * their names. Rows of such a month already in the default partition move into the new one.
 * Safe to run at any time, from several processes at once.
 */
export async function ensureEventPartitions(db: Db, now = new Date()): Promise<string[]> {
  const months = Array.from({ length: monthsAhead + 1 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)));
  return db.transaction(async (tx) => {
    await takeMaintenanceLock(tx);
    const existing = new Set((await listEventPartitions(tx)).map((partition) => partition.from.getTime()));
    const missing = months.filter((month) => !existing.has(month.getTime()));
    if (missing.length === 0) return [];
    // Writers wait until this commits: a row reaching the default partition between the move of
    // its month's rows and the new partition's attachment would make the attachment fail. The
    // parent first, as every insert locks it before the partition its row goes to.
    await tx.execute(sql`lock table analytics_events in share row exclusive mode`);
    const created: string[] = [];
    for (const month of missing) {
      const [row] = await selectRows<{ name: string }>(
        tx,
        sql`select analytics_events_ensure_partition(${month.toISOString()}::timestamptz) as name`,
      );
      created.push(row!.name);
    }
    return created;
  });
}

/**
 * With retentionDays > 0, drops every partition whose rows are all older than now − retentionDays
 * (a month partly inside the retention stays whole until its last instant is older) and deletes
 * the default partition's rows older than that. Rollups are not touched.
 */
export async function dropExpiredEventPartitions(db: Db, retentionDays: number, now = new Date()): Promise<ExpiredEvents> {
  if (retentionDays <= 0) return { droppedPartitions: [], deletedDefaultRows: 0 };
  const cutoff = new Date(now.getTime() - retentionDays * dayMs);
  return db.transaction(async (tx) => {
    await takeMaintenanceLock(tx);
    const expired = (await listEventPartitions(tx)).filter((partition) => partition.to.getTime() <= cutoff.getTime());
    for (const partition of expired) {
      await tx.execute(sql`drop table ${sql.identifier(partition.schema)}.${sql.identifier(partition.name)}`);
    }
    const [defaultPartition] = await selectRows<{ schema: string; name: string }>(
      tx,
      sql`select n.nspname as schema, c.relname as name
          from pg_partitioned_table p
          join pg_class c on c.oid = p.partdefid
          join pg_namespace n on n.oid = c.relnamespace
          where p.partrelid = 'analytics_events'::regclass`,
    );
    let deletedDefaultRows = 0;
    if (defaultPartition) {
      const [deleted] = await selectRows<{ n: number }>(
        tx,
        sql`with deleted as (
              delete from ${sql.identifier(defaultPartition.schema)}.${sql.identifier(defaultPartition.name)}
              where occurred_at < ${cutoff.toISOString()}::timestamptz
              returning 1)
            select count(*)::int as n from deleted`,
      );
      deletedDefaultRows = deleted!.n;
    }
    return { droppedPartitions: expired.map((partition) => partition.name), deletedDefaultRows };
  });
}

/**
 * Both of the above, each in a transaction that gives up waiting for a table lock after
 * lockTimeout (the partitions made stay when the drop gives up).
 */
export async function maintainEventPartitions(
  db: Db,
  config: Pick<Config, "analyticsRetentionDays">,
  now = new Date(),
): Promise<PartitionMaintenanceResult> {
  const createdPartitions = await withLockTimeout(db, (tx) => ensureEventPartitions(tx, now));
  const expired = await withLockTimeout(db, (tx) => dropExpiredEventPartitions(tx, config.analyticsRetentionDays, now));
  return { createdPartitions, ...expired };
}

/**
 * Runs maintainEventPartitions now and every 6 hours on the process-wide database (10 minutes
 * after a failed run): lib/jobs/periodic-task.ts.
 */
export function startPartitionMaintenance(): PeriodicTask {
  return startPeriodicTask({
    name: "Analytics partition maintenance",
    run: async () => describeMaintenance(await maintainEventPartitions(await getDb(), getConfig())),
    intervalMs: maintenanceIntervalMs,
    retryMs: retryAfterFailureMs,
  });
}

function describeMaintenance({ createdPartitions, droppedPartitions, deletedDefaultRows }: PartitionMaintenanceResult): string | undefined {
  const done = [
    createdPartitions.length > 0 ? `created ${createdPartitions.join(", ")}` : undefined,
    droppedPartitions.length > 0 ? `dropped ${droppedPartitions.join(", ")} (past ANALYTICS_RETENTION_DAYS)` : undefined,
    deletedDefaultRows > 0 ? `deleted ${deletedDefaultRows} expired rows of the default partition` : undefined,
  ].filter(Boolean);
  return done.length > 0 ? `Analytics partitions: ${done.join("; ")}.` : undefined;
}

function takeMaintenanceLock(tx: Db) {
  return tx.execute(sql`select pg_advisory_xact_lock(${maintenanceLockKey}::bigint)`);
}

function withLockTimeout<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('lock_timeout', ${lockTimeout}, true)`);
    return work(tx);
  });
}
