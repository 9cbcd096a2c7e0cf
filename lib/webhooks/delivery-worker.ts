import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { schema, type Db } from "@/lib/db";
import { startLeaseWorker } from "@/lib/jobs/lease-worker";
import { isAppError, toAppError } from "@/lib/errors";
import { retryWindowMs, nextAttemptAt } from "./backoff";
import { postWebhook, succeeded, type AttemptOutcome } from "./post-webhook";
import { deliverySecrets, reencryptSigningSecrets } from "./signing-keys";
import { signatureHeaders } from "./signing";

// The delivery worker: every app process runs one (lib/jobs/lease-worker.ts). Each claims due
// deliveries with `for update skip locked` and a lease (next_attempt_at moved a minute ahead), so
// processes share the work without sending anything twice, and a delivery whose process died
// mid-send is picked up again once its lease runs out. The HTTP request runs outside any transaction.

const deliveries = schema.webhookDeliveries;
type DeliveryRow = typeof deliveries.$inferSelect;

/** A claimed delivery is another process's for this long (longer than an attempt's 10 s). */
const leaseMs = 60_000;
const batchSize = 10;
/** The attempt log keeps this many entries, the newest. */
export const maxAttemptLogEntries = 50;
const pollMs = 1_000;
const retryAfterFailureMs = 5_000;
const reencryptEveryMs = 10 * 60_000;

export type AttemptLogEntry =
  | { at: string; statusCode: number | null; error: string | null; durationMs: number; response: string | null }
  | { at: string; resent: true };

export function appendToAttemptLog(log: unknown[], entry: AttemptLogEntry): AttemptLogEntry[] {
  return [...(log as AttemptLogEntry[]), entry].slice(-maxAttemptLogEntries);
}

/**
 * Takes up to `limit` due deliveries for this process (the lease keeps other processes off them);
 * `projectId` limits it to one project's (tests sharing a database).
 */
export async function claimDueDeliveries(db: Db, limit = batchSize, projectId?: string): Promise<DeliveryRow[]> {
  const due = db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.status, "pending"),
        lte(deliveries.nextAttemptAt, sql`now()`),
        projectId ? eq(deliveries.projectId, projectId) : undefined,
      ),
    )
    .orderBy(asc(deliveries.nextAttemptAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(deliveries)
    .set({ nextAttemptAt: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where(and(inArray(deliveries.id, due), eq(deliveries.status, "pending")))
    .returning();
}

type AttemptOptions = { allowPrivate: boolean; signal?: AbortSignal; random?: () => number };

/** One attempt of a claimed delivery, recorded: delivered, retried later, or failed for good. */
export async function attemptDelivery(db: Db, row: DeliveryRow, { allowPrivate, signal, random = Math.random }: AttemptOptions): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const body = JSON.stringify(row.payload);
  let outcome: AttemptOutcome;
  try {
    const secrets = await deliverySecrets(db, row.projectId, startedAt);
    outcome = await postWebhook({ url: row.url, headers: { ...signatureHeaders(secrets, row.messageId, startedAt, body) }, body, allowPrivate, signal });
  } catch (error) {
    // The database failing is the run's failure; anything else about this delivery is its attempt's.
    if (isAppError(toAppError(error), "service_unavailable")) throw error;
    outcome = { statusCode: null, error: (error as Error).message ?? String(error), durationMs: 0, response: null, refused: false };
  }
  // Shutting down: not counted; the lease runs out and a process tries it again (no database
  // write here, so the shutdown stays bounded whatever state the database is in).
  if (signal?.aborted && !succeeded(outcome)) return outcome;
  await recordAttempt(db, row, startedAt, outcome, random());
  return outcome;
}

/**
 * Records the attempt: delivered; failed for good when the URL itself was refused (its address
 * is not public: the same answer on every try) or the 24 h window is over; else retried later.
 */
async function recordAttempt(db: Db, row: DeliveryRow, startedAt: Date, outcome: AttemptOutcome, random: number) {
  const attempts = row.attempts + 1;
  const retryUntil = row.retryUntil ?? new Date(startedAt.getTime() + retryWindowMs);
  const finishedAt = new Date(startedAt.getTime() + outcome.durationMs);
  const ok = succeeded(outcome);
  const next = ok || outcome.refused ? null : nextAttemptAt(attempts, finishedAt, retryUntil, random);
  const { statusCode, error, durationMs, response } = outcome;
  const entry: AttemptLogEntry = { at: startedAt.toISOString(), statusCode, error, durationMs, response };
  await db
    .update(deliveries)
    .set({
      attempts,
      retryUntil,
      status: ok ? "delivered" : next ? "pending" : "failed",
      nextAttemptAt: next ?? finishedAt,
      deliveredAt: ok ? finishedAt : null,
      lastStatusCode: outcome.statusCode,
      lastError: ok ? null : (outcome.error ?? `The receiver answered HTTP ${outcome.statusCode}.`),
      attemptLog: appendToAttemptLog(row.attemptLog, entry),
    })
    .where(and(eq(deliveries.id, row.id), eq(deliveries.status, "pending")));
}

type RunOptions = { allowPrivate?: boolean; signal?: AbortSignal; random?: () => number; projectId?: string };

/**
 * Sends every due delivery, a batch at a time, until none is due (or `signal` aborts). Returns how
 * many were attempted. The tests drive deliveries with it; the server's worker claims through the
 * lease worker below.
 */
export async function runDueDeliveries(db: Db, { allowPrivate = getConfig().webhookAllowPrivate, signal, random, projectId }: RunOptions = {}): Promise<number> {
  let attempted = 0;
  while (!signal?.aborted) {
    const batch = await claimDueDeliveries(db, batchSize, projectId);
    const settled = await Promise.allSettled(batch.map((row) => attemptDelivery(db, row, { allowPrivate, signal, random })));
    const failure = settled.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
    attempted += batch.length;
    if (batch.length < batchSize) break;
  }
  return attempted;
}

const wakeKey = Symbol.for("reelbind.webhook-worker-wake");

/**
 * Makes this process's worker look for due deliveries at once (after a re-send or a test event
 * committed). The worker is started by start-up, in another bundle than the routes: hence globalThis.
 */
export function wakeDeliveryWorker(): void {
  const wake = (globalThis as { [wakeKey]?: () => void })[wakeKey];
  wake?.();
}

/**
 * This process's delivery worker (lib/jobs/lease-worker.ts): up to 10 deliveries at once, a look
 * for due ones every second (an indexed query), and signing secrets made under an older
 * TOKEN_SECRETS entry re-sealed every 10 minutes. Attempts in flight when it stops are cut short
 * (their lease runs out and a process sends them again).
 */
export function startDeliveryWorker(): { stop: () => Promise<void> } {
  let lastReencrypt = 0;
  const allowPrivate = getConfig().webhookAllowPrivate;
  const worker = startLeaseWorker({
    name: "Webhook delivery worker",
    concurrency: batchSize,
    pollMs,
    retryAfterFailureMs,
    beforeClaim: async (db) => {
      if (Date.now() - lastReencrypt < reencryptEveryMs) return;
      await reencryptSigningSecrets(db);
      lastReencrypt = Date.now();
    },
    claim: (db, limit) => claimDueDeliveries(db, limit),
    run: async (db, row, signal) => {
      await attemptDelivery(db, row, { allowPrivate, signal });
    },
  });
  (globalThis as { [wakeKey]?: () => void })[wakeKey] = worker.wake;
  return {
    stop: async () => {
      delete (globalThis as { [wakeKey]?: () => void })[wakeKey];
      await worker.stop();
    },
  };
}
