import type { WireEvent } from "@/shared/events/wire-events";

// The SDK's delivery queue (spec §4.6, §7.1; docs/design.md, Player). The transport is injected: the tracking
// bundle passes fetch, the unit tests a fake.

/** Sends one POST body; resolves with the HTTP status. Status 0 or a rejection is a network error. */
export type SendBody = (body: string) => Promise<number>;

export const maxAttempts = 5;
export const backoffStepMs = 200;
/** fetch with keepalive refuses bodies over 64 KB; 60 KB leaves room for the headers. */
export const maxBodyBytes = 60 * 1024;
/** The most events ingest takes in one batch. */
export const maxBatchEvents = 500;

const utf8 = new TextEncoder();
const utf8Length = (text: string) => utf8.encode(text).length;

const bodyOf = (events: string[], sentAt: string) => `{"sent_at":"${sentAt}","events":[${events.join(",")}]}`;
/** toISOString always writes 24 characters, so the envelope's size is known before sending. */
const envelopeBytes = bodyOf([], new Date(0).toISOString()).length;

export function isRetryable(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** Groups serialized events into bodies of at most maxBatchEvents events and maxBodyBytes bytes, in order. */
export function splitIntoBodies(events: string[]): string[][] {
  const bodies: string[][] = [];
  let current: string[] = [];
  let currentBytes = envelopeBytes;
  for (const event of events) {
    const eventBytes = utf8Length(event);
    // An event too large to travel alone could never leave with keepalive: drop it rather than retry it in vain.
    if (envelopeBytes + eventBytes > maxBodyBytes) continue;
    const fits = current.length < maxBatchEvents && currentBytes + 1 + eventBytes <= maxBodyBytes;
    if (current.length > 0 && !fits) {
      bodies.push(current);
      current = [];
      currentBytes = envelopeBytes;
    }
    currentBytes += (current.length > 0 ? 1 : 0) + eventBytes;
    current.push(event);
  }
  if (current.length > 0) bodies.push(current);
  return bodies;
}

export type Queue = {
  enqueue(event: WireEvent): void;
  /** The page is going away: a batch waiting out its backoff is sent now, while it still can leave. */
  flush(): void;
};

export function createQueue({ send }: { send: SendBody }): Queue {
  let pending: string[] = [];
  let draining = false;
  let endWait: (() => void) | undefined;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        endWait = undefined;
        resolve();
      }
      endWait = done;
    });

  async function deliver(events: string[]) {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await wait(backoffStepMs * (attempt - 1));
      let status: number;
      try {
        status = await send(bodyOf(events, new Date().toISOString()));
      } catch {
        status = 0;
      }
      // Delivered, or a terminal status: either way this batch is done.
      if (!isRetryable(status)) return;
    }
  }

  // Single flight: one batch at a time; whatever arrives meanwhile forms the next batch.
  async function drain() {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      for (const body of splitIntoBodies(batch)) await deliver(body);
    }
    draining = false;
  }

  return {
    enqueue(event) {
      let serialized: string;
      try {
        serialized = JSON.stringify(event);
      } catch {
        // postMessage carries cycles and BigInts, which JSON cannot: such an event cannot be sent.
        return;
      }
      pending.push(serialized);
      // Deferred to a microtask so that everything enqueued in the same task shares one POST.
      if (!draining) {
        draining = true;
        queueMicrotask(drain);
      }
    },
    flush() {
      endWait?.();
    },
  };
}
