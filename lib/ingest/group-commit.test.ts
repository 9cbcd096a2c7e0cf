import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { analyticsEvents } from "@/lib/db/schema";
import { GroupCommitWriter } from "./group-commit";
import { eventRow as row } from "@/testing/ingest";
import { insertEventRows, storeEventRows } from "./store-events";

async function storedCount(projectId: string) {
  const db = await getDb();
  const [result] = await db.select({ n: count() }).from(analyticsEvents).where(eq(analyticsEvents.projectId, projectId));
  return result!.n;
}

describe("insertEventRows", () => {
  it("stores every column and skips (project_id, event_id) pairs already stored", async () => {
    const db = await getDb();
    const projectId = randomUUID();
    const rows = [row(projectId), row(projectId, { playback_id: null, payload: {}, event_type: "session.started" })];
    expect((await insertEventRows(db, rows)).size).toBe(2);
    expect((await insertEventRows(db, rows)).size).toBe(0);
    const [stored] = await db
      .select()
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.projectId, projectId), eq(analyticsEvents.eventId, rows[0]!.event_id)));
    expect(stored).toMatchObject({
      eventType: "video.progressed",
      occurredAt: new Date("2026-11-21T10:00:00.123Z"),
      playbackId: 1,
      payload: { position_ms: 1500, percent: 25 },
      device: { type: "desktop", os: "Linux", browser: "Chrome" },
      geo: { country: "PT" },
      channel: "PROD",
    });
    expect(await storedCount(projectId)).toBe(2);
  });

  it("takes 5,000 rows in one statement (one bind parameter, not one per value)", async () => {
    const projectId = randomUUID();
    const rows = Array.from({ length: 5000 }, () => row(projectId));
    expect((await insertEventRows(await getDb(), rows)).size).toBe(5000);
    expect(await storedCount(projectId)).toBe(5000);
  });
});

describe("GroupCommitWriter", () => {
  it("40 concurrent requests share a few statements, and each hears its own accepted and duplicate counts", async () => {
    const db = await getDb();
    let statements = 0;
    const writer = new GroupCommitWriter(async (rows) => {
      statements++;
      return insertEventRows(db, rows);
    });
    const projectId = randomUUID();
    const batches = Array.from({ length: 40 }, () => Array.from({ length: 20 }, () => row(projectId)));
    const resent = batches[0]!.slice(0, 5);
    const results = await Promise.all([...batches.map((batch) => writer.write(batch)), writer.write(resent)]);

    expect(statements).toBeLessThan(10);
    expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(800);
    expect(results.at(-1)).toEqual({ accepted: 0, duplicates: 5 });
    expect(await storedCount(projectId)).toBe(800);
  });

  it("a statement failing on one request's data: the others of its group are written alone, only that one is refused", async () => {
    const db = await getDb();
    const writer = new GroupCommitWriter((rows) => insertEventRows(db, rows));
    const projectId = randomUUID();
    const broken = [row(projectId, { occurred_at: "not a time" })];
    const outcomes = await Promise.allSettled([writer.write([row(projectId)]), writer.write(broken), writer.write([row(projectId)])]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await storedCount(projectId)).toBe(2);
  });

  // Through the storage ingest really uses (COPY then INSERT … ON CONFLICT on PostgreSQL, the
  // INSERT on PGlite): a poisoned batch, wherever it sits in a group, decides only its own answer.
  const groupSize = 5;
  const poisons = [
    { poison: "a retry of stored events", stored: true, answer: { status: "fulfilled", value: { accepted: 0, duplicates: 3 } } },
    { poison: "a value the database cannot store", stored: false, answer: { status: "rejected" } },
  ] as const;
  describe.each(poisons)("a group holding $poison", ({ stored, answer }) => {
    it.each(Array.from({ length: groupSize }, (_, position) => ({ position })))(
      "at position $position – that batch alone gets its answer, the others are stored",
      async ({ position }) => {
        const writer = new GroupCommitWriter(storeEventRows);
        const projectId = randomUUID();
        const poisoned = stored
          ? Array.from({ length: 3 }, () => row(projectId))
          : [row(projectId), row(projectId, { occurred_at: "not a time" }), row(projectId)];
        if (stored) await writer.write(poisoned);
        const batches = Array.from({ length: groupSize }, (_, i) => (i === position ? poisoned : [row(projectId), row(projectId)]));

        const outcomes = await Promise.allSettled(batches.map((batch) => writer.write(batch)));

        outcomes.forEach((outcome, i) => {
          if (i === position) expect(outcome).toMatchObject(answer);
          else expect(outcome, `batch ${i}`).toEqual({ status: "fulfilled", value: { accepted: 2, duplicates: 0 } });
        });
        expect(await storedCount(projectId)).toBe(2 * (groupSize - 1) + (stored ? 3 : 0));
      },
    );
  });

  it("a statement failing because the database is unavailable refuses every request of the group", async () => {
    let statements = 0;
    const unavailable = Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
    const writer = new GroupCommitWriter(async () => {
      statements++;
      throw unavailable;
    });
    const projectId = randomUUID();
    const outcomes = await Promise.allSettled([writer.write([row(projectId)]), writer.write([row(projectId)])]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(statements).toBe(1);
  });

  it("never runs more than maxInFlight statements at once, and uses that many when requests keep coming", async () => {
    const db = await getDb();
    let running = 0;
    let most = 0;
    // Every statement is held until all 30 requests have come: the writer starts as many as it
    // may meanwhile, however fast or slow the database answers (PGlite answers within one turn
    // of the event loop, so without the hold its statements never overlapped).
    let allSent!: () => void;
    const sent = new Promise<void>((resolve) => (allSent = resolve));
    const writer = new GroupCommitWriter(
      async (rows) => {
        most = Math.max(most, ++running);
        try {
          await sent;
          return await insertEventRows(db, rows);
        } finally {
          running--;
        }
      },
      10_000,
      undefined,
      2,
    );
    const projectId = randomUUID();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      writes.push(writer.write([row(projectId)]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    allSent();
    await Promise.all(writes);
    expect(most).toBe(2);
    expect(await storedCount(projectId)).toBe(30);
  });
});
