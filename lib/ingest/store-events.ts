import { sql } from "drizzle-orm";
import { getCopyIn, getDb, isCopyRejected, type Db } from "@/lib/db";

/** One analytics_events row as ingest writes it (snake_case, as in the table and the JSON it travels in). */
export type EventRow = {
  organization_id: string;
  project_id: string;
  event_id: string;
  event_type: string;
  occurred_at: string;
  received_at: string;
  template_id: string | null;
  template_version: string | null;
  session_id: string | null;
  playback_id: number | null;
  viewer_hash: string | null;
  referrer_host: string | null;
  consent: Record<string, unknown> | null;
  payload: Record<string, unknown>;
  device: Record<string, unknown> | null;
  geo: Record<string, unknown> | null;
  share_id: string | null;
  channel: string | null;
  /** Enrichment's bot verdict (enrich.ts); bots are stored but kept out of every metric. */
  is_bot: boolean;
};

/**
 * Inserts rows in one statement, skipping any (project_id, event_id, occurred_at) already stored, and
 * returns the keys it inserted. The rows travel as one JSON parameter expanded by
 * jsonb_to_recordset: a single bind parameter whatever the row count (a multi-row VALUES
 * list would hit PostgreSQL's 65,535-parameter limit at ~3,000 rows), on PGlite and on a server.
 */
export async function insertEventRows(db: Db, rows: EventRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = await db.execute<{ project_id: string; event_id: string }>(sql`
    insert into analytics_events (
      organization_id, project_id, event_id, event_type, occurred_at, received_at, template_id,
      template_version, session_id, playback_id, viewer_hash, referrer_host, consent, payload,
      device, geo, share_id, channel, is_bot)
    select
      organization_id, project_id, event_id, event_type, occurred_at, received_at, template_id,
      template_version, session_id, playback_id, viewer_hash, referrer_host, consent, payload,
      device, geo, share_id, channel, coalesce(is_bot, false)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
      organization_id uuid, project_id uuid, event_id uuid, event_type text, occurred_at timestamptz,
      received_at timestamptz, template_id text, template_version text, session_id text,
      playback_id integer, viewer_hash text, referrer_host text, consent jsonb, payload jsonb,
      device jsonb, geo jsonb, share_id uuid, channel text, is_bot boolean)
    on conflict (project_id, event_id, occurred_at) do nothing
    returning project_id, event_id`);
  const inserted = Array.isArray(result) ? result : (result as { rows: { project_id: string; event_id: string }[] }).rows;
  return new Set(inserted.map((row) => eventKey(row.project_id, row.event_id)));
}

/** Every row of the group was new, or the keys of those that were. */
export type Inserted = "all" | Set<string>;

export const eventRowColumns = [
  "organization_id", "project_id", "event_id", "event_type", "occurred_at", "received_at", "template_id",
  "template_version", "session_id", "playback_id", "viewer_hash", "referrer_host", "consent", "payload",
  "device", "geo", "share_id", "channel", "is_bot",
] as const satisfies readonly (keyof EventRow)[];
const copyStatement = `copy analytics_events (${eventRowColumns.join(", ")}) from stdin`;

/**
 * Stores rows in one transaction. On a PostgreSQL server the rows go in by COPY, which costs
 * the server less than half of what the INSERT does; COPY cannot skip a row already stored,
 * so when the server refuses the rows (an SDK retry's duplicate key, or a value it cannot
 * store; nothing written) they go through insertEventRows instead, which skips duplicates and
 * reports any other error with its SQLSTATE. PGlite always takes the INSERT.
 */
export async function storeEventRows(rows: EventRow[]): Promise<Inserted> {
  const copyIn = await getCopyIn();
  if (copyIn && rows.length > 0) {
    try {
      await copyIn(copyStatement, toCopyText(rows));
      return "all";
    } catch (error) {
      // The COPY client is process-wide, made by whichever bundle opened the database first:
      // its error is recognised by code (lib/error-code.ts).
      if (!isCopyRejected(error)) throw error;
    }
  }
  return insertEventRows(await getDb(), rows);
}

/** Rows in COPY's text format: tab-separated, \N for null, backslash escapes. */
export function toCopyText(rows: EventRow[]): string {
  let text = "";
  for (const row of rows) {
    for (let i = 0; i < eventRowColumns.length; i++) {
      const value = row[eventRowColumns[i]!];
      if (i > 0) text += "\t";
      if (value === null || value === undefined) text += "\\N";
      else if (typeof value === "string") text += value.search(copySpecials) === -1 ? value : value.replace(copySpecials, escapeCopyCharacter);
      else if (typeof value === "number") text += value;
      else if (typeof value === "boolean") text += value ? "t" : "f";
      else text += copyJson(value);
    }
    text += "\n";
  }
  return text;
}

const copySpecials = /[\\\n\r\t]/g;
const copyEscapes: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const escapeCopyCharacter = (character: string) => copyEscapes[character]!;

/** Frozen values (a batch's device and geo, shared by its rows and cached across batches) are serialized once. */
const frozenJson = new WeakMap<object, string>();

function copyJson(value: object): string {
  const known = frozenJson.get(value);
  if (known !== undefined) return known;
  const json = JSON.stringify(value);
  // JSON text has no raw control characters (JSON.stringify escapes them): only backslashes need doubling.
  const text = json.includes("\\") ? json.replaceAll("\\", "\\\\") : json;
  if (Object.isFrozen(value)) frozenJson.set(value, text);
  return text;
}

export function eventKey(projectId: string, eventId: string): string {
  return `${projectId}/${eventId}`;
}
