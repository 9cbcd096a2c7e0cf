import { sql } from "drizzle-orm";
import type { FieldError } from "@/lib/errors";
import { quarantineSampleMaxChars, quarantineSamplesKept } from "@/lib/analytics/definitions";
import { getDb } from "@/lib/db";
import { processWide } from "@/lib/process-wide";
import { createRateLimiter } from "./rate-limit";
import { validateEvent } from "./validate-events";

// The quarantine (docs/adr/0087-quarantine.md): when a batch with a valid ingest
// token is refused by the v1 schema, its refused events are counted per reason and a few are
// kept as samples, so a project can see what its pages send wrong. The 422 itself is not
// changed or delayed: the record is written after it, best effort. Events of an accepted batch
// that were not stored because the project has no such template (./project-templates.ts) are
// recorded the same way, after their batch's 202.

/** Refused events sampled from one batch (the rest are only counted). */
const samplesPerBatch = 10;
const maxReasonLength = 300;
/** Batches with refused events recorded a second per project and process; past it they are answered but not recorded. */
const recordsPerSecond = { ratePerSecond: 20, burst: 100, maxKeys: 10_000 };

export type RefusedEvent = { reasons: string[]; event: unknown };

/**
 * The refused events of a batch body and their reasons: each event validated alone (so every
 * refused event is found, not only the first 50 errors of the batch), plus the batch's own errors.
 */
export function refusedEvents(body: unknown, batchErrors: FieldError[]): RefusedEvent[] {
  const refused: RefusedEvent[] = [];
  const ownErrors = batchErrors.filter((error) => !/^events\.\d+(\.|$)/.test(error.path));
  if (ownErrors.length > 0) refused.push({ reasons: unique(ownErrors.map(reasonOf)), event: batchWithoutEvents(body) });
  const events = (body as { events?: unknown } | null)?.events;
  if (Array.isArray(events)) {
    for (const event of events) {
      const result = validateEvent(event);
      if (!result.ok) refused.push({ reasons: unique(result.errors.map(reasonOf)), event });
    }
  }
  return refused;
}

/** "payload/percent: must be at most 100": the field's path within the event, and the message. */
function reasonOf({ path, message }: FieldError): string {
  return storableText(path ? `${path.replaceAll(".", "/")}: ${message}` : message).slice(0, maxReasonLength);
}

function batchWithoutEvents(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const { events, ...rest } = body as Record<string, unknown>;
  return Array.isArray(events) ? { ...rest, events: `[${events.length} events]` } : body;
}

const unique = (values: string[]) => [...new Set(values)];

/** Text PostgreSQL can store: no NUL, no unpaired surrogates (both are reasons a body is refused). */
function storableText(text: string): string {
  return text.toWellFormed().replaceAll("\u0000", "\uFFFD");
}

/** Nesting below this is written as a marker: a refused body can nest deeper than JSON.stringify's stack allows. */
const maxSampleDepth = 64;

/** The envelope as JSON text (escapes keep it storable), cut to quarantineSampleMaxChars. */
export function sampleText(event: unknown): string {
  const depths = new WeakMap<object, number>();
  const json =
    JSON.stringify(event, function (this: unknown, _key, value: unknown) {
      if (typeof value !== "object" || value === null) return value;
      const depth = (typeof this === "object" && this !== null ? (depths.get(this) ?? 0) : 0) + 1;
      if (depth > maxSampleDepth) return "[nested too deep]";
      depths.set(value, depth);
      return value;
    }) ?? "null";
  return json.length <= quarantineSampleMaxChars ? json : storableText(json.slice(0, quarantineSampleMaxChars));
}

const pending = () => processWide("ingest.quarantine-writes", () => new Set<Promise<void>>());

/**
 * Records a refused batch without holding up its answer; a failure is logged, never raised.
 * Returns the write, which drainQuarantine also waits for.
 */
export function quarantineRefusedBatch(projectId: string, body: unknown, batchErrors: FieldError[], receivedAt = new Date()): Promise<void> {
  return recordUnlessLimited(projectId, () => refusedEvents(body, batchErrors), receivedAt);
}

/** Records the events of an accepted batch that were not stored, like quarantineRefusedBatch. */
export function quarantineRefusedEvents(projectId: string, refused: RefusedEvent[], receivedAt = new Date()): Promise<void> {
  return recordUnlessLimited(projectId, () => refused, receivedAt);
}

/** One limit for both kinds of record: a batch recorded is recorded whole, every refused event counted. */
function recordUnlessLimited(projectId: string, refused: () => RefusedEvent[], receivedAt: Date): Promise<void> {
  const limiter = processWide("ingest.quarantine-limiter", () => createRateLimiter(recordsPerSecond));
  if (!limiter.take(projectId, 1).allowed) return Promise.resolve();
  const write = recordRefused(projectId, refused(), receivedAt).catch((error: unknown) => {
    console.error("Could not record refused ingest events in the quarantine", error);
  });
  const writes = pending();
  writes.add(write);
  void write.finally(() => writes.delete(write));
  return write;
}

/** Waits for the quarantine writes under way (shutdown, tests). */
export async function drainQuarantine(): Promise<void> {
  await Promise.all(pending());
}

async function recordRefused(projectId: string, refused: RefusedEvent[], receivedAt: Date): Promise<void> {
  if (refused.length === 0) return;
  const counts = new Map<string, number>();
  for (const { reasons } of refused) for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const hour = new Date(Math.floor(receivedAt.getTime() / 3_600_000) * 3_600_000).toISOString();
  const samples = refused.slice(0, samplesPerBatch).map(({ reasons, event }) => ({ reason: reasons.join("; ").slice(0, maxReasonLength), event: sampleText(event) }));
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into analytics_quarantine_counts (project_id, hour, reason, count)
      select ${projectId}::uuid, ${hour}::timestamptz, reason, count
      from jsonb_to_recordset(${JSON.stringify([...counts].map(([reason, count]) => ({ reason, count })))}::jsonb) as r(reason text, count bigint)
      on conflict (project_id, hour, reason) do update set count = analytics_quarantine_counts.count + excluded.count`);
    await tx.execute(sql`
      insert into analytics_quarantine_samples (project_id, received_at, reason, event)
      select ${projectId}::uuid, ${receivedAt.toISOString()}::timestamptz, reason, event
      from jsonb_to_recordset(${JSON.stringify(samples)}::jsonb) as r(reason text, event text)`);
    // Keep the newest quarantineSamplesKept: the index on (project_id, id) finds the cut-off.
    await tx.execute(sql`
      delete from analytics_quarantine_samples
      where project_id = ${projectId}::uuid and id < (
        select id from analytics_quarantine_samples where project_id = ${projectId}::uuid
        order by id desc offset ${quarantineSamplesKept - 1} limit 1)`);
  });
}
