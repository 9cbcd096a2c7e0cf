import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/lib/analytics/select-rows";
import postgres from "postgres";
import { toAppError } from "@/lib/errors";
import { CopyRejectedError, CopyTimeoutError, getCopyIn, getDb, getDbDriver } from "@/lib/db";
import { sqlState } from "@/testing/sql-state";
import { eventRow as row, storedCount, storedEvents } from "@/testing/ingest";
import { eventKey, eventRowColumns, storeEventRows, toCopyText, type EventRow, type Inserted } from "./store-events";

// storeEventRows takes COPY on a PostgreSQL server and the INSERT on PGlite, so the storage
// cases run on both drivers; what happens to the pool around refused and large COPYs needs a server.


const copyColumns = eventRowColumns.join(", ");

const keysOf = (rows: EventRow[]) => new Set(rows.map((r) => eventKey(r.project_id, r.event_id)));

/** A row as drizzle reads it back from analytics_events (without the storing transaction's xid). */
function asStored(r: EventRow) {
  return {
    organizationId: r.organization_id,
    projectId: r.project_id,
    eventId: r.event_id,
    eventType: r.event_type,
    occurredAt: new Date(r.occurred_at),
    receivedAt: new Date(r.received_at),
    templateId: r.template_id,
    templateVersion: r.template_version,
    sessionId: r.session_id,
    playbackId: r.playback_id,
    viewerHash: r.viewer_hash,
    referrerHost: r.referrer_host,
    consent: r.consent,
    payload: r.payload,
    device: r.device,
    geo: r.geo,
    shareId: r.share_id,
    channel: r.channel,
    isBot: r.is_bot,
  };
}

/** Every row was new: COPY reports "all" on a server; PGlite's INSERT names each row. */
async function expectEveryRowReported(inserted: Inserted, rows: EventRow[]) {
  if ((await getDbDriver()) === "postgres") expect(inserted).toBe("all");
  else expect(inserted).toEqual(keysOf(rows));
}

/** The project's stored rows in asStored's shape, ordered by event_id. */
async function readBack(projectId: string) {
  return (await storedEvents(projectId)).map(({ xid: _xid, ...stored }) => stored);
}

const byEventId = (rows: EventRow[]) => [...rows].sort((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));


// Every character COPY's text format treats specially, the end-of-data marker, and text that
// must not be mistaken for an escape or a null.
const awkwardStrings = [
  "tab\there",
  "line\nfeed",
  "carriage\rreturn\r\n",
  "back\\slash and a trailing \\",
  "\\N",
  "\\.",
  "\\.\n\\.",
  "\\t is not a tab",
  `quotes "double" 'single' \`back\``,
  "Olá — 東京 🎬",
  "\\u00e9 \\ud83c\\udfac",
  "\b\f\v\u0001\u007f",
  "",
];

describe("storeEventRows", () => {
  it("storeEventRows – new rows: all stored, every one reported", async () => {
    const projectId = randomUUID();
    const rows = Array.from({ length: 50 }, () => row(projectId));
    await expectEveryRowReported(await storeEventRows(rows), rows);
    expect(await readBack(projectId)).toEqual(byEventId(rows).map(asStored));
  });

  it("storeEventRows – awkward text and JSON values come back exactly as sent, null stays null", async () => {
    const projectId = randomUUID();
    const rows = [
      ...awkwardStrings.map((text) =>
        row(projectId, {
          event_type: text,
          template_id: text,
          template_version: text,
          session_id: text,
          viewer_hash: text,
          referrer_host: text,
          channel: text,
          consent: { status: text },
          payload: { value: text, [`key ${text}`]: [text, null, { nested: text }] },
          device: { [text]: text },
          geo: { city: text },
        }),
      ),
      row(projectId, { payload: { escaped: JSON.parse('"\\u00e9\\ud83c\\udfac\\t\\u005c"') as string } }),
      row(projectId, {
        template_id: null,
        template_version: null,
        session_id: null,
        playback_id: null,
        viewer_hash: null,
        referrer_host: null,
        consent: null,
        payload: { value: null },
        device: null,
        geo: null,
        share_id: null,
        channel: null,
      }),
    ];
    await expectEveryRowReported(await storeEventRows(rows), rows);
    expect(await readBack(projectId)).toEqual(byEventId(rows).map(asStored));
  });

  it("storeEventRows – one row already stored among new ones: reports exactly the new keys, keeps the stored row as it was", async () => {
    const projectId = randomUUID();
    const stored = row(projectId, { payload: { first: true } });
    await storeEventRows([stored]);
    const fresh = [row(projectId), row(projectId)];
    const inserted = await storeEventRows([fresh[0]!, { ...stored, payload: { first: false } }, fresh[1]!]);
    expect(inserted).toEqual(keysOf(fresh));
    expect(await readBack(projectId)).toEqual(byEventId([stored, ...fresh]).map(asStored));
  });

  it("storeEventRows – the same event_id twice in one group: stored once, one key reported", async () => {
    const projectId = randomUUID();
    const event = row(projectId);
    const inserted = await storeEventRows([event, { ...event, payload: { resent: true } }]);
    expect(inserted).toEqual(keysOf([event]));
    expect(await readBack(projectId)).toEqual([asStored(event)]);
  });

  it.each([
    ["an occurred_at that is not a time", { occurred_at: "not-a-date" }],
    ["a playback_id out of integer range", { playback_id: 2 ** 31 }],
    ["a payload string holding U+0000, which jsonb refuses", { payload: { note: "nul \u0000 here" } }],
    ["a payload string holding a lone surrogate", { payload: { note: "half \ud83c" } }],
    ["a session_id holding U+0000", { session_id: "nul \u0000 here" }],
  ] satisfies [string, Partial<EventRow>][])(
    "storeEventRows – %s: rejects with SQLSTATE class 22, no row of the group stored",
    async (_case, overrides) => {
      const projectId = randomUUID();
      const error = await storeEventRows([row(projectId), row(projectId, overrides), row(projectId)]).catch((e: unknown) => e);
      expect(sqlState(error)).toMatch(/^22/);
      expect(await storedCount(projectId)).toBe(0);
    },
  );
});

describe("toCopyText", () => {
  it("writes a frozen value shared by rows (a batch's device) the same in every row, however often it is written", () => {
    const device = Object.freeze({ type: "desktop", os: "Linux\\GNU", browser: "Chrome" });
    const rows = [row(randomUUID(), { device }), row(randomUUID(), { device })];
    const expected = '{"type":"desktop","os":"Linux\\\\\\\\GNU","browser":"Chrome"}';
    for (const text of [toCopyText(rows), toCopyText(rows)]) {
      const lines = text.split("\n").filter(Boolean);
      expect(lines.map((line) => line.split("\t")[14])).toEqual([expected, expected]);
    }
  });

  it("toCopyText – escapes backslash, tab, newline and carriage return; null becomes \\N", () => {
    const text = toCopyText([
      {
        organization_id: "00000000-0000-4000-8000-000000000001",
        project_id: "00000000-0000-4000-8000-000000000002",
        event_id: "00000000-0000-4000-8000-000000000003",
        event_type: "video.played",
        occurred_at: "2026-11-21T10:00:00.123Z",
        received_at: "2026-11-21T10:00:01.456Z",
        template_id: null,
        template_version: "1.0\t2",
        session_id: "line\nbreak\r",
        playback_id: 7,
        viewer_hash: "\\N",
        referrer_host: "back\\slash",
        consent: null,
        payload: { note: "a\tb\\c" },
        device: null,
        geo: { city: "東京" },
        share_id: null,
        channel: "PROD",
        is_bot: true,
      },
    ]);
    expect(text).toBe(
      [
        "00000000-0000-4000-8000-000000000001",
        "00000000-0000-4000-8000-000000000002",
        "00000000-0000-4000-8000-000000000003",
        "video.played",
        "2026-11-21T10:00:00.123Z",
        "2026-11-21T10:00:01.456Z",
        "\\N",
        "1.0\\t2",
        "line\\nbreak\\r",
        "7",
        "\\\\N",
        "back\\\\slash",
        "\\N",
        '{"note":"a\\\\tb\\\\\\\\c"}',
        "\\N",
        '{"city":"東京"}',
        "\\N",
        "PROD",
        "t",
      ].join("\t") + "\n",
    );
  });
});

/** No connection of this database sits in a transaction, and statements on every pooled connection succeed. */
async function expectPoolHealthy() {
  const db = await getDb();
  // Other test files may share this database and hold a transaction for a moment; a leaked one stays.
  await expect
    .poll(
      async () => {
        const [open] = await selectRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and state like 'idle in transaction%'`,
        );
        return open!.n;
      },
      { timeout: 100_000 },
    )
    .toBe(0);
  // More statements at once than the pool has connections: one left in an aborted transaction would fail (25P02).
  await Promise.all(Array.from({ length: 20 }, () => db.execute(sql`select pg_sleep(0.02)`)));
}

// Skipped on PGlite on purpose: PGlite stores rows by INSERT, never COPY; .ci/run runs these in its PostgreSQL pass.
describe.skipIf(!process.env.DATABASE_URL)("COPY on a PostgreSQL server (PostgreSQL only)", () => {
  it("copyIn – 12 refusals at once: each a CopyRejectedError (with the server's error when postgres.js reports it), every connection back in the pool usable", async () => {
    const copyIn = (await getCopyIn())!;
    const projectId = randomUUID();
    const twice = row(projectId);
    // The refused statement is reported before any data goes out. A refusal of the data may
    // come after CopyDone, where postgres.js drops it and the COMMIT answers ROLLBACK instead:
    // then the CopyRejectedError has no cause.
    const refusals: [statement: string, data: string, sqlState: string, alwaysReported: boolean][] = [
      ["copy analytics_events (no_such_column) from stdin", "x\n", "42703", true],
      [`copy analytics_events (${copyColumns}) from stdin`, "too\tfew\tcolumns\n", "22P02", false],
      [`copy analytics_events (${copyColumns}) from stdin`, toCopyText([twice, twice]), "23505", false],
    ];
    const attempts = Array.from({ length: 12 }, (_, i) => refusals[i % refusals.length]!);
    const outcomes = await Promise.allSettled(attempts.map(([statement, data]) => copyIn(statement, data)));
    for (const [i, outcome] of outcomes.entries()) {
      expect(outcome.status).toBe("rejected");
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(CopyRejectedError);
      const [, , code, alwaysReported] = attempts[i]!;
      if (alwaysReported || reason.cause !== undefined) expect(sqlState(reason.cause)).toBe(code);
    }
    expect(await storedCount(projectId)).toBe(0);
    await expectPoolHealthy();
  });

  it("storeEventRows – a COPY the database does not finish in 10 s (the table locked) → CopyTimeoutError, a 503; once unlocked, the next group goes in", async () => {
    const projectId = randomUUID();
    const locker = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    // The lock is held from the moment the server grants it until the COPY has given up:
    // the COPY starts only once the table is locked, and the lock outlasts it however slow the machine.
    let lockTaken!: () => void;
    const taken = new Promise<void>((resolve) => (lockTaken = resolve));
    let copyDone!: () => void;
    const done = new Promise<void>((resolve) => (copyDone = resolve));
    try {
      const locked = locker.begin(async (tx) => {
        await tx`lock table analytics_events in access exclusive mode`;
        lockTaken();
        await done;
      });
      await Promise.race([taken, locked]);
      const error = await storeEventRows([row(projectId)]).catch((caught: unknown) => caught);
      copyDone();
      expect(error).toBeInstanceOf(CopyTimeoutError);
      expect(toAppError(error).kind).toBe("service_unavailable");
      await locked;
    } finally {
      copyDone();
      await locker.end();
    }
    const after = [row(projectId), row(projectId)];
    expect(await storeEventRows(after)).toBe("all");
    expect(await storedCount(projectId)).toBeGreaterThanOrEqual(2);
  });

  it("storeEventRows – 12 refused groups at once beside ordinary queries: no transaction left open, the next COPY goes through", async () => {
    const db = await getDb();
    const projectId = randomUUID();
    const stored = Array.from({ length: 6 }, () => row(projectId));
    expect(await storeEventRows(stored)).toBe("all");

    const duplicateGroups = stored.map((old) => [old, row(projectId)]);
    const badGroups = Array.from({ length: 6 }, () => [row(projectId), row(projectId, { occurred_at: "not-a-date" })]);
    const [duplicates, bad, queries] = await Promise.all([
      Promise.all(duplicateGroups.map((group) => storeEventRows(group))),
      Promise.allSettled(badGroups.map((group) => storeEventRows(group))),
      Promise.all(Array.from({ length: 12 }, (_, i) => selectRows<{ i: number }>(db, sql`select ${i}::int as i, pg_sleep(0.01)`))),
    ]);
    expect(duplicates).toEqual(duplicateGroups.map((group) => keysOf(group.slice(1))));
    expect(bad.map((outcome) => outcome.status === "rejected" && sqlState(outcome.reason))).toEqual(Array(6).fill("22007"));
    expect(queries.map(([answer]) => answer!.i)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(await storedCount(projectId)).toBe(12);

    await expectPoolHealthy();
    const after = Array.from({ length: 10 }, () => row(projectId));
    expect(await storeEventRows(after)).toBe("all");
    expect(await storedCount(projectId)).toBe(22);
  });

  it("storeEventRows – 20,000 rows whose first is already stored (refused while still being sent): the 19,999 others stored", async () => {
    const projectId = randomUUID();
    const rows = Array.from({ length: 20_000 }, (_, i) => row(projectId, { payload: { position_ms: i, note: "x".repeat(400) } }));
    expect(Buffer.byteLength(toCopyText(rows))).toBeGreaterThan(8_000_000);
    expect(await storeEventRows(rows.slice(0, 1))).toBe("all");

    const inserted = await storeEventRows(rows);
    expect(inserted).toEqual(keysOf(rows.slice(1)));
    expect(await storedCount(projectId)).toBe(20_000);
  });

  it("storeEventRows – 20,000 new rows: one COPY, all stored", async () => {
    const projectId = randomUUID();
    const rows = Array.from({ length: 20_000 }, (_, i) => row(projectId, { payload: { position_ms: i, note: "x".repeat(400) } }));
    expect(await storeEventRows(rows)).toBe("all");
    expect(await storedCount(projectId)).toBe(20_000);
  });
});
