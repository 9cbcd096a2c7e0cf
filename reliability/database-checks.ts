import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

// What the fault specs look up behind the app's back, in its database and DATA_DIR: events
// stored once, the invariants the schema promises, and templates whose rows and blobs agree.
// On PGlite the app must have exited first (the embedded database is single-process).

export type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;
/** The app's database: a PostgreSQL URL, or the PGlite cluster in DATA_DIR. */
export type AppDatabase = { url?: string; dataDir: string };

export async function withAppDatabase<T>({ url, dataDir }: AppDatabase, inspect: (query: Query) => Promise<T>): Promise<T> {
  if (url) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      return await inspect(async <R>(text: string, params: unknown[] = []) => (await sql.unsafe(text, params as never[])) as unknown as R[]);
    } finally {
      await sql.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    return await inspect(async <R>(text: string, params: unknown[] = []) => (await client.query<R>(text, params)).rows);
  } finally {
    await client.close();
  }
}

/** Of `ids`, how many are stored, and how many rows they have (more rows than ids: duplicates). */
export async function countStored(query: Query, ids: string[]): Promise<{ stored: number; rows: number }> {
  const [counts] = await query<{ stored: number; rows: number }>(
    "select count(distinct event_id)::int as stored, count(*)::int as rows from analytics_events where event_id = any($1::uuid[])",
    [ids],
  );
  return counts!;
}

/** Rows breaking the invariants: two Production templates in a project, two shares on a channel, an event id stored twice. */
export async function invariantViolations(query: Query) {
  return {
    productionTemplates: await query(
      "select project_id, count(*)::int as n from templates where status = 'Production' group by project_id having count(*) > 1",
    ),
    sharesPerChannel: await query(
      "select project_id, channel, count(*)::int as n from public_video_shares group by project_id, channel having count(*) > 1",
    ),
    duplicateEvents: await query("select event_id, count(*)::int as n from analytics_events group by event_id having count(*) > 1"),
  };
}

/** Files under a directory, relative to it (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * Templates against the local blob store: file rows whose blob is missing, blobs no row
 * references, temp files left behind, and templates without any file.
 */
export async function templateStoreProblems(query: Query, dataDir: string) {
  const blobs = path.join(dataDir, "blobs");
  const keys = new Set((await query<{ storage_key: string }>("select distinct storage_key from template_files")).map((row) => row.storage_key));
  const stored = new Set(filesUnder(path.join(blobs, "sha256")).map((file) => `sha256/${path.basename(file)}`));
  return {
    rowsWithoutBlob: [...keys].filter((key) => !stored.has(key)),
    blobsWithoutRow: [...stored].filter((key) => !keys.has(key)),
    tempFiles: filesUnder(path.join(blobs, "tmp")),
    templatesWithoutFiles: await query<{ id: string }>(
      "select id from templates t where not exists (select 1 from template_files f where f.template_id = t.id)",
    ),
  };
}
