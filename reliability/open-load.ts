import { setTimeout as delay } from "node:timers/promises";

// An open-model load generator: requests leave on a fixed schedule whether or not the earlier
// ones were answered (as independent users do), at most `concurrency` at once; a request that
// finds every slot taken waits for one, and that wait counts in its latency. Latency is measured
// from the scheduled time, so a slow server cannot hide its delay by slowing the sender down.

/** What one request ended with: an HTTP status, or "network error <code>" (reset, refused, timeout). */
export type Outcome = { status: number | string; retryAfter?: string | null };

export type Shot = {
  stream: string;
  /** Its place in its stream (which request of the stream's cycle it was). */
  index: number;
  /** The class the request is reported under (read, write, ingest…). */
  kind: string;
  /** ms since the epoch. */
  scheduledAt: number;
  /** Later than scheduledAt when every slot was taken. */
  startedAt: number;
  endedAt: number;
  latencyMs: number;
  outcome: Outcome;
};

export type Stream = {
  name: string;
  /** Requests per second. */
  rate: number;
  concurrency: number;
  /** Sends request `index`; says which class it was and how it ended. */
  send: (index: number) => Promise<{ kind: string; outcome: Outcome }>;
};

/**
 * How long a load runs: a fixed duration, or until `signal` is aborted (a test that stops the
 * load on an event: the app answered 503, it recovered…). `shots` receives each record as its
 * request ends, for a test that watches the load while it runs.
 */
export type LoadSpan = number | { signal: AbortSignal; shots?: Shot[] };

/** Runs each stream at its rate for `span` and resolves with every request's record once all have ended. */
export async function runOpenLoad(streams: Stream[], span: LoadSpan): Promise<Shot[]> {
  const shots: Shot[] = typeof span === "number" ? [] : (span.shots ?? []);
  const signal = typeof span === "number" ? undefined : span.signal;
  const ended = new Promise<void>((resolve) => signal && (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
  const start = Date.now();
  await Promise.all(
    streams.map(async (stream) => {
      const total = typeof span === "number" ? Math.floor((span / 1000) * stream.rate) : Infinity;
      const running = new Set<Promise<void>>();
      for (let index = 0; index < total; index++) {
        const scheduledAt = start + (index * 1000) / stream.rate;
        await Promise.race([delay(Math.max(0, scheduledAt - Date.now())), ended]);
        if (signal?.aborted) break;
        while (running.size >= stream.concurrency) await Promise.race(running);
        const startedAt = Date.now();
        const shot = stream.send(index).then(({ kind, outcome }) => {
          const endedAt = Date.now();
          shots.push({ stream: stream.name, index, kind, scheduledAt, startedAt, endedAt, latencyMs: endedAt - scheduledAt, outcome });
        });
        const tracked = shot.finally(() => running.delete(tracked));
        running.add(tracked);
      }
      await Promise.all(running);
    }),
  );
  return shots.sort((a, b) => a.scheduledAt - b.scheduledAt);
}

/**
 * fetch with a bound that only guards against a hang (a slow answer on a busy machine is still
 * an answer); a failure to get an answer is an outcome too, named by its code.
 */
export async function timedFetch(url: string, init: RequestInit = {}, timeoutMs = 120_000): Promise<{ outcome: Outcome; body: string }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    return { outcome: { status: response.status, retryAfter: response.headers.get("retry-after") }, body };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { outcome: { status: `network error ${cause?.code ?? (error as Error).name}` }, body: "" };
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Latencies from the scheduled time; service times from the time the request was sent. */
export type ClassFigures = {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  serviceP50Ms: number;
  serviceP99Ms: number;
  statuses: Record<string, number>;
};

/**
 * Each class of `shots`: its throughput (requests answered a second, from the first scheduled
 * send to the last answer: below the offered rate when the server fell behind), p50/p99 and
 * statuses.
 */
export function figuresByClass(shots: Shot[]): Record<string, ClassFigures> {
  const byKind = new Map<string, Shot[]>();
  for (const shot of shots) {
    if (!byKind.has(shot.kind)) byKind.set(shot.kind, []);
    byKind.get(shot.kind)!.push(shot);
  }
  return Object.fromEntries(
    [...byKind].map(([kind, list]) => {
      const statuses = countBy(list.map((shot) => shot.outcome.status));
      const latencies = list.map((shot) => shot.latencyMs);
      const serviceTimes = list.map((shot) => shot.endedAt - shot.startedAt);
      const seconds = (Math.max(...list.map((shot) => shot.endedAt)) - Math.min(...list.map((shot) => shot.scheduledAt))) / 1000;
      const figures: ClassFigures = {
        requests: list.length,
        perSecond: Math.round((list.length / seconds) * 10) / 10,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        serviceP50Ms: percentile(serviceTimes, 50),
        serviceP99Ms: percentile(serviceTimes, 99),
        statuses,
      };
      return [kind, figures];
    }),
  );
}

export function countBy(values: (string | number)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
