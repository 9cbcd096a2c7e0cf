import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventBatch, WireEvent } from "@/shared/events/wire-events";
import { createQueue, maxBodyBytes } from "./queue";
import { positionOf, settle } from "@/testing/sdk-tracker";

/** A wire event whose payload carries `filler` (to reach a given size) and a position to tell events apart. */
function wireEvent(position: number, filler = ""): WireEvent {
  return {
    event_id: randomUUID(),
    event_type: "video.played",
    occurred_at: "2026-11-21T10:00:00.123Z",
    playback_id: 1,
    payload: filler ? { position_ms: position, filler } : { position_ms: position },
    organization_id: randomUUID(),
    project_id: randomUUID(),
    template_id: randomUUID(),
    template_version: "1.0",
    session_id: randomUUID(),
    consent: { status: "not_required" },
  } as WireEvent;
}

type Response = number | "reject";

/**
 * A fake transport: each attempt takes the next response of `responses` (the last one repeats).
 * Records every body and how many POSTs were in flight at once.
 */
function fakeSend(responses: Response[] = [202]) {
  const bodies: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = async (body: string) => {
    bodies.push(body);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await Promise.resolve();
    inFlight -= 1;
    const response = responses[Math.min(bodies.length - 1, responses.length - 1)]!;
    if (response === "reject") throw new TypeError("Failed to fetch");
    return response;
  };
  const batches = () => bodies.map((body) => JSON.parse(body) as EventBatch);
  const positions = () => batches().map((batch) => batch.events.map(positionOf));
  return { send, bodies, batches, positions, maxInFlight: () => maxInFlight };
}

/** A transport whose POSTs stay in flight until the test answers them. */
function heldSend() {
  const bodies: string[] = [];
  const answers: ((status: number) => void)[] = [];
  const send = (body: string) =>
    new Promise<number>((resolve) => {
      bodies.push(body);
      answers.push(resolve);
    });
  const positions = () => bodies.map((body) => (JSON.parse(body) as EventBatch).events.map(positionOf));
  return { send, bodies, positions, answer: (index: number, status: number) => answers[index]!(status) };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("createQueue – batching", () => {
  it("createQueue – events enqueued in one task go out in one POST, after the current task", async () => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    queue.enqueue(wireEvent(2));
    queue.enqueue(wireEvent(3));
    expect(transport.bodies).toHaveLength(0);
    await settle();
    expect(transport.positions()).toEqual([[1, 2, 3]]);
  });

  it("createQueue – the body is {sent_at, events} with the events as enqueued", async () => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    const event = wireEvent(1);
    queue.enqueue(event);
    await settle();
    const [batch] = transport.batches();
    expect(Object.keys(batch!)).toEqual(["sent_at", "events"]);
    expect(batch!.sent_at).toBe(new Date().toISOString());
    expect(batch!.events).toEqual([event]);
  });

  it("createQueue – events of a later task, once the first POST is done, go in a second POST", async () => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await settle();
    queue.enqueue(wireEvent(2));
    await settle();
    expect(transport.positions()).toEqual([[1], [2]]);
  });

  it("createQueue – single flight: events enqueued while a POST is in flight wait for the next POST", async () => {
    const transport = heldSend();
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await settle();
    queue.enqueue(wireEvent(2));
    await settle();
    queue.enqueue(wireEvent(3));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.positions()).toEqual([[1]]);

    transport.answer(0, 202);
    await settle();
    expect(transport.positions()).toEqual([[1], [2, 3]]);
  });

  it("createQueue – single flight: events enqueued during a backoff wait go after the retried batch", async () => {
    const transport = fakeSend([503, 202]);
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await settle();
    queue.enqueue(wireEvent(2));
    await vi.advanceTimersByTimeAsync(200);
    expect(transport.positions()).toEqual([[1], [1], [2]]);
    expect(transport.maxInFlight()).toBe(1);
  });
});

describe("createQueue – retries", () => {
  it("createQueue – waits 200, 400, 600, 800 ms before the retries, then drops the batch after the 5th failure", async () => {
    const transport = fakeSend([503]);
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await settle();
    expect(transport.bodies).toHaveLength(1);

    for (const [index, waitMs] of [200, 400, 600, 800].entries()) {
      await vi.advanceTimersByTimeAsync(waitMs - 1);
      expect(transport.bodies, `1 ms before retry ${index + 1}`).toHaveLength(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(transport.bodies, `retry ${index + 1}`).toHaveLength(index + 2);
    }
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.bodies).toHaveLength(5);
  });

  it("createQueue – a retried batch keeps its events and their ids", async () => {
    const transport = fakeSend([500, 202]);
    const queue = createQueue({ send: transport.send });
    const event = wireEvent(1);
    queue.enqueue(event);
    await vi.advanceTimersByTimeAsync(200);
    expect(transport.batches().map((batch) => batch.events)).toEqual([[event], [event]]);
  });

  it("createQueue – after a dropped batch, later events still go out", async () => {
    const transport = fakeSend([503, 503, 503, 503, 503, 202]);
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(transport.bodies).toHaveLength(5);

    queue.enqueue(wireEvent(2));
    await settle();
    expect(transport.positions()).toEqual([[1], [1], [1], [1], [1], [2]]);
  });

  it.each<[string, Response]>([
    ["500", 500],
    ["503", 503],
    ["599", 599],
    ["408", 408],
    ["429", 429],
    ["a network error (fetch rejects)", "reject"],
    ["a network error (status 0)", 0],
  ])("createQueue – %s is retried after 200 ms", async (_name, failure) => {
    const transport = fakeSend([failure, 202]);
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await vi.advanceTimersByTimeAsync(199);
    expect(transport.bodies).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.positions()).toEqual([[1], [1]]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.bodies).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 413, 422, 418, 301, 600])(
    "createQueue – status %i is terminal: one attempt, the batch is dropped, later events go out",
    async (status) => {
      const transport = fakeSend([status, 202]);
      const queue = createQueue({ send: transport.send });
      queue.enqueue(wireEvent(1));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(transport.bodies).toHaveLength(1);

      queue.enqueue(wireEvent(2));
      await settle();
      expect(transport.positions()).toEqual([[1], [2]]);
    },
  );

  it.each([200, 202, 204])("createQueue – status %i delivers the batch: no retry", async (status) => {
    const transport = fakeSend([status]);
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.bodies).toHaveLength(1);
  });

  it("createQueue – flush() (pagehide) sends a batch waiting out its backoff at once", async () => {
    const transport = fakeSend([503, 202]);
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    await vi.advanceTimersByTimeAsync(50);
    expect(transport.bodies).toHaveLength(1);
    queue.flush();
    await settle();
    expect(transport.bodies).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.bodies).toHaveLength(2);
  });
});

describe("createQueue – body limits", () => {
  const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

  /** Two events whose body is exactly `bodyBytes` long, the filler written in `character`. */
  function twoEventsOfBodySize(bodyBytes: number, character: string) {
    const first = wireEvent(1, "x");
    const second = wireEvent(2, "x");
    const baseBytes = utf8Bytes(`{"sent_at":"${new Date().toISOString()}","events":[${JSON.stringify(first)},${JSON.stringify(second)}]}`);
    const fillerBytes = bodyBytes - baseBytes + 1;
    const characterBytes = utf8Bytes(character);
    expect(fillerBytes % characterBytes, "the filler fits whole characters").toBe(0);
    second.payload = { position_ms: 2, filler: character.repeat(fillerBytes / characterBytes) } as unknown as WireEvent["payload"];
    return [first, second];
  }

  it.each([
    ["ASCII", "x"],
    ["two-byte UTF-8", "é"],
  ])("createQueue – a body of exactly 60 KB (%s) goes out whole", async (_name, character) => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    for (const event of twoEventsOfBodySize(maxBodyBytes, character)) queue.enqueue(event);
    await settle();
    expect(transport.positions()).toEqual([[1, 2]]);
    expect(utf8Bytes(transport.bodies[0]!)).toBe(60 * 1024);
  });

  it.each([
    ["ASCII", "x"],
    ["two-byte UTF-8", "é"],
  ])("createQueue – one byte (%s) over 60 KB splits the batch into two POSTs", async (_name, character) => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    const characterBytes = utf8Bytes(character);
    for (const event of twoEventsOfBodySize(maxBodyBytes + characterBytes, character)) queue.enqueue(event);
    await settle();
    expect(transport.positions()).toEqual([[1], [2]]);
  });

  it("createQueue – a large batch is split into bodies of at most 60 KB, sent one after another in order", async () => {
    const transport = heldSend();
    const queue = createQueue({ send: transport.send });
    for (let position = 1; position <= 10; position++) queue.enqueue(wireEvent(position, "y".repeat(20_000)));
    await settle();
    expect(transport.bodies).toHaveLength(1);
    for (let index = 0; transport.bodies.length > index; index++) {
      transport.answer(index, 202);
      await settle();
    }
    expect(transport.positions()).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]]);
    for (const body of transport.bodies) expect(utf8Bytes(body)).toBeLessThanOrEqual(60 * 1024);
  });

  it("createQueue – a batch of 501 events goes out as 500 and 1", async () => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    // Real wire events are too large for 500 to fit in 60 KB; the queue does not look inside them.
    const tinyEvent = (position: number) => ({ payload: { position_ms: position } }) as unknown as WireEvent;
    for (let position = 1; position <= 501; position++) queue.enqueue(tinyEvent(position));
    await settle();
    expect(transport.positions().map((positions) => positions.length)).toEqual([500, 1]);
  });

  it("createQueue – an event too large for any body is dropped; the others go out", async () => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    queue.enqueue(wireEvent(1));
    queue.enqueue(wireEvent(2, "z".repeat(maxBodyBytes)));
    queue.enqueue(wireEvent(3));
    await settle();
    expect(transport.positions()).toEqual([[1, 3]]);
  });

  it("createQueue – an event JSON cannot carry (a cycle) is dropped; the others go out", async () => {
    const transport = fakeSend();
    const queue = createQueue({ send: transport.send });
    const cyclic = wireEvent(2);
    (cyclic.payload as Record<string, unknown>).self = cyclic.payload;
    queue.enqueue(wireEvent(1));
    queue.enqueue(cyclic);
    queue.enqueue(wireEvent(3));
    await settle();
    expect(transport.positions()).toEqual([[1, 3]]);
  });
});
