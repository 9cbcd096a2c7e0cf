// When a failed delivery is tried again: a fixed ladder of waits (the Standard Webhooks
// reference schedule, stretched to 8 h steps), each ±20 % at random so that deliveries that
// failed together (a receiver's outage) do not all come back in the same second. Retries stop
// 24 h after the first attempt.

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** The wait after the n-th failed attempt (index n - 1); past the end the last step repeats. */
export const retryDelaysMs = [5 * second, 30 * second, 2 * minute, 10 * minute, 30 * minute, hour, 2 * hour, 4 * hour, 8 * hour] as const;

/** How long after its first attempt a delivery is retried. */
export const retryWindowMs = 24 * hour;

const jitter = 0.2;

/** The wait after `failedAttempts` failures, jittered by `random` (0 ≤ random < 1; 0.5 is no jitter). */
export function retryDelayMs(failedAttempts: number, random: number = Math.random()): number {
  const base = retryDelaysMs[Math.min(Math.max(failedAttempts, 1), retryDelaysMs.length) - 1]!;
  return Math.round(base * (1 + jitter * (2 * random - 1)));
}

/**
 * When to try again after a failure, or null to give up: the next attempt would start after
 * `retryUntil` (24 h after the first attempt).
 */
export function nextAttemptAt(failedAttempts: number, failedAt: Date, retryUntil: Date, random: number = Math.random()): Date | null {
  const next = new Date(failedAt.getTime() + retryDelayMs(failedAttempts, random));
  return next.getTime() > retryUntil.getTime() ? null : next;
}
