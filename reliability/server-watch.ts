import { existsSync, openSync, readdirSync, readSync, closeSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { readAdminChannel, sendToAdminChannel } from "@/lib/cli/admin-channel";
import type { Db } from "@/lib/db";
import { countRowsPerTable } from "@/lib/db/row-counts";
import * as schema from "@/lib/db/schema";
import { env } from "../e2e/owned-project";

// What the bad-input specs watch on the app global-setup started: each answer (status, type,
// problem document, connection resets), the rows of every table, the blob store's files and
// what the app printed. A violation is a string naming the case and what went wrong.

export type Answer = { status: number; contentType: string; body: string } | { error: string };

export type SentRequest = { method: string; url: string; headers?: Record<string, string>; body?: string | Uint8Array | FormData | null };

/**
 * Sends one request on a connection of its own (so a reset can only come from how the server
 * handled this request, never from a keep-alive race), its path exactly as written ("%2e%2e"
 * and ".." included, which fetch would normalize), reading answers whose headers go up to
 * 64 KB (a redirect echoes a long URL). A network failure is an answer too.
 */
export async function send({ method, url, headers = {}, body }: SentRequest): Promise<Answer> {
  const base = new URL(env("E2E_BASE_URL"));
  const target = /^https?:\/\//.test(url) ? new URL(url) : null;
  const sentHeaders = { ...headers };
  let bytes: Uint8Array | string | undefined;
  if (body instanceof FormData) {
    const encoded = new Response(body);
    sentHeaders["Content-Type"] = encoded.headers.get("content-type")!;
    bytes = new Uint8Array(await encoded.arrayBuffer());
  } else {
    bytes = body ?? undefined;
  }
  if (bytes !== undefined) sentHeaders["Content-Length"] = String(Buffer.byteLength(bytes));
  return new Promise((resolve) => {
    let answered = false;
    const failed = (error: Error) => ({ error: `${(error as NodeJS.ErrnoException).code ?? ""} ${error.message}` });
    const request = http.request(
      {
        host: (target ?? base).hostname,
        port: (target ?? base).port,
        method,
        path: target ? `${target.pathname}${target.search}` : url,
        headers: sentHeaders,
        agent: false,
        maxHeaderSize: 64 * 1024,
        timeout: 60_000,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, contentType: response.headers["content-type"] ?? "", body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", (error) => resolve(failed(error)));
      },
    );
    // Writing may fail after the server answered early (a 413 before the body was read): the answer counts.
    request.on("error", (error) => answered || resolve(failed(error)));
    request.on("timeout", () => request.destroy(new Error("no answer within 60 s")));
    request.end(bytes);
  });
}

export const isRejected = (answer: Answer) => "status" in answer && answer.status >= 400 && answer.status < 500;

/** What is wrong with an answer to bad input: a 5xx, a reset, or a 4xx that is not problem+json with a detail. */
export function wrongAnswer(answer: Answer, method: string): string | null {
  if ("error" in answer) return `no answer: ${answer.error}`;
  if (answer.status >= 500) return `${answer.status} ${answer.body.slice(0, 200)}`;
  if (answer.status < 400) return null;
  if (!answer.contentType.startsWith("application/problem+json")) return `${answer.status} with Content-Type ${answer.contentType || "(none)"}`;
  if (method === "HEAD") return null;
  try {
    const problem = JSON.parse(answer.body) as { status?: unknown; detail?: unknown; type?: unknown };
    if (problem.status !== answer.status || typeof problem.detail !== "string" || problem.detail === "" || typeof problem.type !== "string") {
      return `${answer.status} problem without status/type/detail: ${answer.body.slice(0, 200)}`;
    }
  } catch {
    return `${answer.status} problem+json that is not JSON: ${answer.body.slice(0, 200)}`;
  }
  return null;
}

// ── rows ─────────────────────────────────────────────────────────────────────────────

export type RowCounts = Record<string, number>;

/**
 * Rows per table (`reelbind db row-counts`): on PostgreSQL through a connection of our own; on
 * PGlite the server holds the database, so through the CLI's admin channel to that server
 * (what `reelbind db row-counts` does, without starting a process per count).
 */
export function rowCounter(): { count: () => Promise<RowCounts>; close: () => Promise<void> } {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (databaseUrl) {
    const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const db = drizzle({ client, schema }) as unknown as Db;
    return { count: () => countRowsPerTable(db), close: () => client.end() };
  }
  const channel = readAdminChannel(env("E2E_DATA_DIR"));
  if (!channel) throw new Error("The server published no admin channel in E2E_DATA_DIR");
  const count = async () => {
    const response = await sendToAdminChannel(channel, { command: "db row-counts", options: {} }, 60_000);
    if (!response.ok) throw new Error(`db row-counts: ${response.status} ${await response.text()}`);
    return (await response.json()) as RowCounts;
  };
  return { count, close: async () => {} };
}

/**
 * Tables no request's outcome is judged by: the ingest's quarantine counts and samples record
 * the events a batch carried when the v1 schema refused it (docs/adr/0087-quarantine.md),
 * written after the 422 is answered; the analytics rollups and their cursor are derived
 * from events already stored, by a job that runs in the background every few seconds; webhook
 * deliveries are queued by the render worker when a render accepted earlier finishes; the
 * rate_limits rows count attempts at what sends mail (invitations, password resets), refused
 * ones too (lib/auth/action-limits.ts).
 */
const recordsOfRefusals = new Set([
  "rate_limits",
  "analytics_quarantine_counts",
  "analytics_quarantine_samples",
  "analytics_daily_rollups",
  "analytics_hourly_rollups",
  "analytics_rollup_cursors",
  "webhook_deliveries",
]);

/** "templates +1, template_files +3", or "" when nothing changed (the background-written tables above left out). */
export function rowChanges(before: RowCounts, after: RowCounts): string {
  return Object.keys(after)
    .filter((table) => !recordsOfRefusals.has(table) && after[table] !== before[table])
    .map((table) => `${table} ${after[table]! - (before[table] ?? 0) > 0 ? "+" : ""}${after[table]! - (before[table] ?? 0)}`)
    .join(", ");
}

/**
 * Holds the database to "a request that may not store anything changed no row". Such requests
 * (refused ones, reads) are checked in batches: one count after many of them; a request that
 * may store something is preceded by a count (the batch before it is checked) and followed by
 * one (what it stored becomes the new baseline). BAD_INPUT_ROW_BATCH=1 checks each on its own.
 */
export class RowLedger {
  counts = 0;
  private pending: string[] = [];

  private constructor(
    private readonly counter: ReturnType<typeof rowCounter>,
    private baseline: RowCounts,
    private readonly batch = Number(process.env.BAD_INPUT_ROW_BATCH ?? 25),
  ) {}

  static async open(counter: ReturnType<typeof rowCounter>): Promise<RowLedger> {
    return new RowLedger(counter, await counter.count());
  }

  private async count(): Promise<RowCounts> {
    this.counts += 1;
    return this.counter.count();
  }

  /** Checks the batch: violations when a row count moved. */
  async settle(): Promise<string[]> {
    if (this.pending.length === 0) return [];
    const now = await this.count();
    const changed = rowChanges(this.baseline, now);
    const cases = this.pending;
    this.baseline = now;
    this.pending = [];
    return changed ? [`rows changed (${changed}) during ${cases.length} request(s) that may not store anything: ${cases.slice(0, 5).join(" | ")}`] : [];
  }

  /** Before a request that may store rows. */
  async beforeStoring(): Promise<string[]> {
    return this.settle();
  }

  /** After each request; mayHaveStored: it may store rows and was not refused. */
  async after(label: string, mayHaveStored: boolean): Promise<string[]> {
    if (mayHaveStored) {
      this.baseline = await this.count();
      return [];
    }
    this.pending.push(label);
    return this.pending.length >= this.batch ? this.settle() : [];
  }
}

// ── blobs ────────────────────────────────────────────────────────────────────────────

function walk(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** The blob store's stored files and its temp files (DATA_DIR/blobs). */
export function blobFiles(): { stored: Set<string>; temp: string[] } {
  const root = path.join(env("E2E_DATA_DIR"), "blobs");
  return { stored: new Set(walk(path.join(root, "sha256"))), temp: walk(path.join(root, "tmp")) };
}

// ── the app's output ─────────────────────────────────────────────────────────────────

/** Lines that say an error escaped a request: Node's and Next's reports of uncaught errors, stack frames. */
const errorLine = /uncaught|unhandled|⨯|\bError\b|^\s+at\s/i;

/** Reads what the app printed (E2E_APP_LOG) since the last call. */
export function appLogReader() {
  const file = env("E2E_APP_LOG");
  let offset = statSync(file).size;
  return {
    /** New lines that signal an error, and all new lines. */
    read(): { errors: string[]; lines: string[] } {
      const size = statSync(file).size;
      if (size <= offset) return { errors: [], lines: [] };
      const buffer = Buffer.alloc(size - offset);
      const fd = openSync(file, "r");
      try {
        readSync(fd, buffer, 0, buffer.length, offset);
      } finally {
        closeSync(fd);
      }
      offset = size;
      const lines = buffer.toString("utf8").split("\n").filter((line) => line.trim() !== "");
      return { errors: lines.filter((line) => errorLine.test(line)), lines };
    },
  };
}
