import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { maxBreakdownKeys, type BreakdownDimension } from "../definitions";
import { selectRows } from "../select-rows";
import { dailyCounters, filterDimensions, type DailyCounter, type DocumentDimension, type FilterDimension } from "./contribution";
import { maskBits, mergeIntoRow, type DailyRow } from "./cube";
import { parseHourlyKey, type RollupChange } from "./pending";
import { ViewerSketch } from "./viewer-sketch";

// Reads of the rollup tables: every query names its project, its mask and its day range, so it
// reads one row per day (and key, for a breakdown), whatever the number of events behind them.
// Each read also takes the change not yet rolled up (`tail`, pending.ts) and adds the part of it
// its query would have read, had it been written: the answer is right at the moment it is read.

/** A report's scope: the project, whole UTC days [fromDay, toDay), and the filters (null: any). */
export type RollupScope = {
  projectId: string;
  fromDay: string;
  toDay: string;
  channel: string | null;
  templateId: string | null;
  templateVersion: string | null;
  deviceType: string | null;
  country: string | null;
};

const filterOf: Record<FilterDimension, (scope: RollupScope) => string | null> = {
  channel: (scope) => scope.channel,
  template_id: (scope) => scope.templateId,
  template_version: (scope) => scope.templateVersion,
  device_type: (scope) => scope.deviceType,
  country: (scope) => scope.country,
};

/** Which cube rows a read takes: the mask, and the value each dimension must have (null: any; '' for those the mask leaves out). */
function cubeSelection(scope: RollupScope, free?: FilterDimension): { mask: number; values: (string | null)[] } {
  let mask = 0;
  const values = filterDimensions.map((dimension) => {
    const value = filterOf[dimension](scope);
    if (value !== null) mask |= maskBits[dimension];
    else if (dimension === free) {
      mask |= maskBits[dimension];
      return null;
    }
    return value ?? "";
  });
  return { mask, values };
}

/** The cube mask a read of the scope (with `free` left free, for a breakdown) selects. */
export const cubeMask = (scope: RollupScope, free?: FilterDimension): number => cubeSelection(scope, free).mask;

const columnOf: Partial<Record<BreakdownDimension, FilterDimension>> = {
  channel: "channel",
  templateVersion: "template_version",
  deviceType: "device_type",
  country: "country",
};

/** The masks a whole report of the scope reads: its own, and each filter breakdown's (once each). */
export const reportMasks = (scope: RollupScope): number[] => [...new Set([cubeMask(scope), ...Object.values(columnOf).map((column) => cubeMask(scope, column))])];

/** The rows of the scope's filters, plus (for a breakdown) one dimension left free. */
function cubeConditions(scope: RollupScope, free?: FilterDimension): SQL {
  const { mask, values } = cubeSelection(scope, free);
  const conditions: SQL[] = [sql`project_id = ${scope.projectId}::uuid`, sql`day >= ${scope.fromDay}::date`, sql`day < ${scope.toDay}::date`];
  filterDimensions.forEach((dimension, i) => {
    const value = values[i];
    if (value !== null) conditions.push(sql`${sql.identifier(dimension)} = ${value}`);
  });
  return sql.join([sql`mask = ${mask}`, ...conditions], sql` and `);
}

/** The tail's changes to the rows cubeConditions selects, as rows (with their day and filter values). */
function tailRows(tail: RollupChange | null | undefined, scope: RollupScope, free?: FilterDimension): (DailyRow & { day: string; values: string[] })[] {
  if (!tail) return [];
  const { mask, values } = cubeSelection(scope, free);
  const rows: (DailyRow & { day: string; values: string[] })[] = [];
  for (const { key, delta } of tail.cube.values()) {
    if (key.projectId !== scope.projectId || key.mask !== mask || key.day < scope.fromDay || key.day >= scope.toDay) continue;
    if (values.every((value, i) => value === null || key.values[i] === value)) rows.push({ ...mergeIntoRow(undefined, delta), day: key.day, values: key.values });
  }
  return rows;
}

export type DayTotals = { day: string; counters: Record<DailyCounter, number> };

export type ScopeTotals = {
  counters: Record<DailyCounter, number>;
  days: DayTotals[];
  uniqueViewers: number;
  breakdowns: Map<string, Map<string, number[]>>;
  chapters: Map<string, [number, number, number | null, string, number | null]>;
};

type DayRow = Record<DailyCounter, number | string> & {
  day: string;
  viewers: Uint8Array | null;
  breakdowns?: Record<string, Record<string, number[]>>;
  chapters?: Record<string, [number, number, number | null, string, number | null]>;
};

const zeroCounters = () => Object.fromEntries(dailyCounters.map((name) => [name, 0])) as Record<DailyCounter, number>;

/** The scope's counters per day and in total, its unique viewers, and (with `documents`) its browser/OS/referrer and chapter facts. */
export async function readScope(db: Db, scope: RollupScope, { documents, tail }: { documents: boolean; tail?: RollupChange | null }): Promise<ScopeTotals> {
  const stored = await selectRows<DayRow>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, ${sql.raw(dailyCounters.join(", "))}, viewers
      ${documents ? sql`, breakdowns, chapters` : sql``}
    from analytics_daily_rollups where ${cubeConditions(scope)}`,
  );
  const rows: DayRow[] = [...stored, ...tailRows(tail, scope).map((row) => (documents ? row : { ...row, breakdowns: undefined, chapters: undefined }))];
  const totals: ScopeTotals = { counters: zeroCounters(), days: [], uniqueViewers: 0, breakdowns: new Map(), chapters: new Map() };
  const days = new Map<string, Record<DailyCounter, number>>();
  const viewers = new ViewerSketch();
  for (const row of rows) {
    let counters = days.get(row.day);
    if (!counters) days.set(row.day, (counters = zeroCounters()));
    for (const name of dailyCounters) {
      counters[name] += Number(row[name]);
      totals.counters[name] += Number(row[name]);
    }
    if (row.viewers) viewers.merge(ViewerSketch.fromBytes(row.viewers));
    for (const [dimension, keys] of Object.entries(row.breakdowns ?? {})) {
      let merged = totals.breakdowns.get(dimension);
      if (!merged) totals.breakdowns.set(dimension, (merged = new Map()));
      for (const [key, facts] of Object.entries(keys)) {
        const known = merged.get(key);
        if (known) facts.forEach((value, i) => (known[i]! += value));
        else merged.set(key, [...facts]);
      }
    }
    for (const [id, entry] of Object.entries(row.chapters ?? {})) {
      const known = totals.chapters.get(id);
      if (!known) totals.chapters.set(id, [...entry]);
      else {
        known[0] += entry[0];
        known[1] += entry[1];
        if (entry[2] !== null) known[2] = known[2] === null ? entry[2] : Math.min(known[2], entry[2]);
        if ((entry[4] ?? -Infinity) >= (known[4] ?? -Infinity)) [known[3], known[4]] = [entry[3], entry[4]];
      }
    }
  }
  totals.days = [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counters]) => ({ day, counters }));
  totals.uniqueViewers = viewers.count();
  return totals;
}

export type BreakdownRow = { key: string; sessions: number; plays: number; completions: number; ctaClicks: number };

/** Orders breakdown rows as the report does: most sessions, then plays, then key by code point; at most maxBreakdownKeys. */
export function orderBreakdown(rows: BreakdownRow[]): BreakdownRow[] {
  return rows
    .filter((row) => row.sessions !== 0 || row.plays !== 0 || row.completions !== 0 || row.ctaClicks !== 0)
    .sort((a, b) => b.sessions - a.sessions || b.plays - a.plays || Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)))
    .slice(0, maxBreakdownKeys);
}

/** A breakdown by browser, OS or referrer host, from the documents readScope merged. */
export function documentBreakdown(totals: ScopeTotals, dimension: DocumentDimension): BreakdownRow[] {
  const keys = totals.breakdowns.get(dimension) ?? new Map<string, number[]>();
  return orderBreakdown([...keys].map(([key, [sessions = 0, plays = 0, completions = 0, ctaClicks = 0]]) => ({ key, sessions, plays, completions, ctaClicks })));
}


/** A breakdown by one of the filter dimensions: the cube's rows with that dimension left free. */
export async function filterBreakdown(
  db: Db,
  scope: RollupScope,
  dimension: "channel" | "templateVersion" | "deviceType" | "country",
  tail?: RollupChange | null,
): Promise<BreakdownRow[]> {
  const column = columnOf[dimension]!;
  const rows = await selectRows<{ key: string; sessions: string; plays: string; completions: string; cta_clicks: string }>(
    db,
    sql`select ${sql.identifier(column)} as key, sum(sessions) as sessions, sum(plays) as plays,
      sum(completed_plays) as completions, sum(cta_clicks) as cta_clicks
    from analytics_daily_rollups where ${cubeConditions(scope, column)}
    group by 1`,
  );
  const byKey = new Map<string, BreakdownRow>();
  const add = (key: string, sessions: number, plays: number, completions: number, ctaClicks: number) => {
    const known = byKey.get(key);
    if (!known) byKey.set(key, { key, sessions, plays, completions, ctaClicks });
    else Object.assign(known, { sessions: known.sessions + sessions, plays: known.plays + plays, completions: known.completions + completions, ctaClicks: known.ctaClicks + ctaClicks });
  };
  for (const row of rows) add(row.key, Number(row.sessions), Number(row.plays), Number(row.completions), Number(row.cta_clicks));
  const index = filterDimensions.indexOf(column);
  for (const row of tailRows(tail, scope, column)) add(row.values[index]!, row.sessions, row.plays, row.completed_plays, row.cta_clicks);
  return orderBreakdown([...byKey.values()]);
}

/** Sessions, plays, completions and CTA clicks per UTC hour in [from, to), with the scope's filters. */
export async function readHours(db: Db, scope: RollupScope, from: Date, to: Date, tail?: RollupChange | null): Promise<Map<string, [number, number, number, number]>> {
  const conditions = [sql`project_id = ${scope.projectId}::uuid`, sql`hour >= ${from.toISOString()}::timestamptz`, sql`hour < ${to.toISOString()}::timestamptz`];
  for (const dimension of filterDimensions) {
    const value = filterOf[dimension](scope);
    if (value !== null) conditions.push(sql`${sql.identifier(dimension)} = ${value}`);
  }
  const rows = await selectRows<{ hour: string; sessions: string; plays: string; completions: string; cta_clicks: string }>(
    db,
    sql`select to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as hour, sum(sessions) as sessions, sum(plays) as plays,
      sum(completions) as completions, sum(cta_clicks) as cta_clicks
    from analytics_hourly_rollups where ${sql.join(conditions, sql` and `)}
    group by hour`,
  );
  const hours = new Map<string, [number, number, number, number]>(
    rows.map((row) => [row.hour, [Number(row.sessions), Number(row.plays), Number(row.completions), Number(row.cta_clicks)]]),
  );
  const wanted = filterDimensions.map((dimension) => filterOf[dimension](scope));
  for (const [key, facts] of tail?.hourly ?? []) {
    const { projectId, hourMs: hour, values } = parseHourlyKey(key);
    if (projectId !== scope.projectId || hour < from.getTime() || hour >= to.getTime()) continue;
    if (!wanted.every((value, i) => value === null || values[i] === value)) continue;
    const start = new Date(hour).toISOString();
    const known = hours.get(start);
    if (known) facts.forEach((value, i) => (known[i]! += value));
    else hours.set(start, [...facts]);
  }
  return hours;
}

export type HeatmapTotals = { plays: number; furthestMs: number | null; deltas: Map<number, [number, number, number]> };

/** One template's heatmap changes per second, summed over the scope. */
export async function readHeatmap(db: Db, scope: RollupScope & { templateId: string }, tail?: RollupChange | null): Promise<HeatmapTotals> {
  const stored = await selectRows<{ heatmap_plays: string | number; heatmap_furthest_ms: number | null; heatmap: Record<string, number[]> }>(
    db,
    sql`select heatmap_plays, heatmap_furthest_ms, heatmap from analytics_daily_rollups where ${cubeConditions(scope)}`,
  );
  const rows = [...stored, ...tailRows(tail, scope)];
  const totals: HeatmapTotals = { plays: 0, furthestMs: null, deltas: new Map() };
  for (const row of rows) {
    totals.plays += Number(row.heatmap_plays);
    if (row.heatmap_furthest_ms !== null) totals.furthestMs = Math.max(totals.furthestMs ?? 0, row.heatmap_furthest_ms);
    for (const [second, values] of Object.entries(row.heatmap)) {
      const known = totals.deltas.get(Number(second));
      if (known) values.forEach((value, i) => (known[i]! += value));
      else totals.deltas.set(Number(second), [values[0] ?? 0, values[1] ?? 0, values[2] ?? 0]);
    }
  }
  return totals;
}

