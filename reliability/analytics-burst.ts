import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { browserUserAgent, type Manifest } from "../e2e/wire-events";

// A campaign send as the analytics see it: many viewer sessions over several days, posted to the
// ingest endpoint in batches by many connections at once, then the report asked for until it is
// right. Shared by the freshness spec (reliability/analytics-freshness.spec.ts) and
// `npm run bench:analytics` (its burst → right figure).

/** What the burst sent that a report over its days must count. */
export type BurstTotals = { sessions: number; plays: number; completedPlays: number; ctaClicks: number; events: number };

export type BurstPlan = {
  sessions: number;
  /** Sessions start over this many UTC days, today and the ones before. */
  days: number;
  sessionsPerBatch: number;
  /** Seed of the mix (which sessions play, complete, click): printed by the callers. */
  seed: number;
  /** Where each session's referrer host comes from; by default one of a few real-looking hosts. */
  referrerHost?: (session: number) => string;
  /** The template the events claim; by default the manifest's. */
  template?: (session: number) => { id: string; version: string };
};

/** A small deterministic generator (mulberry32): the same seed makes the same mix. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const referrers = ["www.example.com", "news.example.org", "mail.example.net", "social.example.com"];

/**
 * The batch bodies of the burst, built before sending (so the sender only sends), and the totals
 * a report must show: each session starts, four in five play, half of those complete (the rest
 * leave at 25–75 %), one play in five clicks the CTA.
 */
export function burstBatches(manifest: Manifest, plan: BurstPlan, now = Date.now()): { bodies: string[]; totals: BurstTotals } {
  const random = seeded(plan.seed);
  const totals: BurstTotals = { sessions: 0, plays: 0, completedPlays: 0, ctaClicks: 0, events: 0 };
  const dayMs = 86_400_000;
  const todayStart = Math.floor(now / dayMs) * dayMs;
  const bodies: string[] = [];
  let events: object[] = [];
  for (let session = 0; session < plan.sessions; session++) {
    const day = session % plan.days;
    // Within its day and never in the future: today's sessions start before now.
    const dayLength = day === 0 ? Math.max(60_000, now - todayStart - 60_000) : dayMs - 60_000;
    const start = todayStart - day * dayMs + Math.floor(random() * dayLength);
    const template = plan.template?.(session) ?? manifest.template!;
    const base = {
      organization_id: manifest.organizationId,
      project_id: manifest.projectId,
      template_id: template.id,
      template_version: template.version,
      session_id: randomUUID(),
      consent: { status: "granted" },
      referrer_host: plan.referrerHost?.(session) ?? referrers[session % referrers.length],
    };
    const event = (offsetMs: number, eventType: string, playbackId: number | null, payload: object) => {
      events.push({ ...base, event_id: randomUUID(), event_type: eventType, occurred_at: new Date(start + offsetMs).toISOString(), playback_id: playbackId, payload });
      totals.events++;
    };
    event(0, "session.started", null, {});
    totals.sessions++;
    if (random() < 0.8) {
      event(1_000, "video.played", 1, { position_ms: 0 });
      event(6_000, "video.progressed", 1, { position_ms: 5_000, percent: 25 });
      totals.plays++;
      if (random() < 0.5) {
        event(21_000, "video.completed", 1, { duration_ms: 20_000, percent: 100, watched: [[0, 20_000]] });
        totals.completedPlays++;
      } else {
        const percent = 25 + Math.floor(random() * 51);
        event(9_000, "video.incomplete", 1, { position_ms: percent * 200, percent, watched: [[0, percent * 200]] });
      }
      if (random() < 0.2) {
        event(22_000, "cta.clicked", 1, { cta_id: "book", cta_name: "Book a demo", position_ms: 20_000 });
        totals.ctaClicks++;
      }
    }
    if ((session + 1) % plan.sessionsPerBatch === 0 || session === plan.sessions - 1) {
      bodies.push(JSON.stringify({ sent_at: new Date(now).toISOString(), events }));
      events = [];
    }
  }
  return { bodies, totals };
}

export type SendFigures = { batches: number; acknowledged: number; refused: number; seconds: number; eventsPerSecond: number };

/**
 * Posts batches with `connections` at once; a batch answered other than 202 is counted as refused,
 * not retried. Acknowledged events are those accepted or already stored (duplicates). `source` is the bodies, or a function giving the next one (undefined:
 * no more). `tokens` are used in turn (each has its own rate limit).
 */
export async function sendBatches(
  ingestUrl: string,
  tokens: string[],
  source: string[] | (() => string | undefined),
  {
    connections,
    signal,
    onAcknowledged,
    batchesPerSecond,
  }: { connections: number; signal?: AbortSignal; onAcknowledged?: (index: number) => void; batchesPerSecond?: number },
): Promise<SendFigures> {
  const started = performance.now();
  let next = 0;
  const take = typeof source === "function" ? source : () => source[next];
  const figures = { batches: 0, acknowledged: 0, refused: 0 };
  const sender = async () => {
    for (;;) {
      if (signal?.aborted) return;
      const body = take();
      if (body === undefined) return;
      const index = next++;
      // Paced: batch `index` leaves no earlier than its turn (an open arrival rate), never later than it can.
      if (batchesPerSecond) await delay(Math.max(0, started + (index * 1000) / batchesPerSecond - performance.now()));
      const post = () =>
        fetch(`${ingestUrl}/analytics/v1/events`, {
          method: "POST",
          headers: { Authorization: `Bearer ${tokens[index % tokens.length]}`, "Content-Type": "application/json", "User-Agent": browserUserAgent },
          body,
          signal: AbortSignal.timeout(120_000),
        });
      // A keep-alive connection the server closed as it was reused has no answer: sent again, as
      // the SDK would (a batch is idempotent; what the first try stored comes back as duplicates).
      const response = await post().catch((error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
        return post();
      });
      const text = await response.text();
      figures.batches++;
      if (response.status === 202) {
        const { accepted, duplicates } = JSON.parse(text) as { accepted: number; duplicates: number };
        figures.acknowledged += accepted + duplicates;
        onAcknowledged?.(index);
      } else figures.refused++;
    }
  };
  await Promise.all(Array.from({ length: connections }, sender));
  const seconds = (performance.now() - started) / 1000;
  return { ...figures, seconds, eventsPerSecond: figures.acknowledged / seconds };
}

type Report = {
  freshness: { asOf: string | null; pendingEvents: number };
  summary: { sessions: number; plays: number; completedPlays: number; ctaClicks: number };
};

export type Poll = { at: number; latencyMs: number; report: Report };

const counted = ({ summary }: Report) => ({ sessions: summary.sessions, plays: summary.plays, completedPlays: summary.completedPlays, ctaClicks: summary.ctaClicks });

/** Whether a report counts exactly the totals. */
export const isRight = (report: Report, totals: BurstTotals) => JSON.stringify(counted(report)) === JSON.stringify(counted({ ...report, summary: { ...totals } }));

/**
 * Asks for the report until it is right and complete (pendingEvents 0), every `everyMs`; gives
 * up after `hangGuardMs` (a guard against a hang, not a bound on speed). Returns every poll.
 */
export async function pollUntilRight(
  ask: () => Promise<Report>,
  totals: BurstTotals,
  { everyMs = 250, hangGuardMs = 300_000 } = {},
): Promise<{ polls: Poll[]; right: boolean }> {
  const polls: Poll[] = [];
  const until = Date.now() + hangGuardMs;
  for (;;) {
    const started = performance.now();
    const report = await ask();
    polls.push({ at: Date.now(), latencyMs: performance.now() - started, report });
    if (report.freshness.pendingEvents === 0 && isRight(report, totals)) return { polls, right: true };
    if (Date.now() > until) return { polls, right: false };
    await delay(everyMs);
  }
}
