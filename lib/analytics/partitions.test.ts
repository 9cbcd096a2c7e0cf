import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb, getDbDriver } from "@/lib/db";
import { eventRow } from "@/testing/ingest";
import { eventKey, storeEventRows, type EventRow, type Inserted } from "@/lib/ingest/store-events";
import {
  dropExpiredEventPartitions,
  ensureEventPartitions,
  listEventPartitions,
  maintainEventPartitions,
  startPartitionMaintenance,
} from "./partitions";
import { selectRows } from "./select-rows";

// Other test files may share this database (DATABASE_URL) and its current months' partitions:
// tests here work in months of their own, in the 1990s and the 2090s, where nothing else stores
// events. Retention removes everything older than its cut-off, so each test starts from, and
// leaves, those decades without partitions or events.

const ownDecades = sql`(occurred_at < '2000-01-01T00:00:00Z' or occurred_at >= '2090-01-01T00:00:00Z')`;
const isOwnDecade = (instant: Date) => instant.getUTCFullYear() < 2000 || instant.getUTCFullYear() >= 2090;

afterEach(async () => {
  const db = await getDb();
  for (const partition of await listEventPartitions(db)) {
    if (isOwnDecade(partition.from)) await db.execute(sql`drop table ${sql.identifier(partition.schema)}.${sql.identifier(partition.name)}`);
  }
  await db.execute(sql`delete from analytics_events_default where ${ownDecades}`);
});

/** The partition each of the project's rows is stored in, by event_id. */
async function partitionsOfRows(projectId: string): Promise<Record<string, string>> {
  const rows = await selectRows<{ event_id: string; partition: string }>(
    await getDb(),
    sql`select event_id::text, tableoid::regclass::text as partition from analytics_events where project_id = ${projectId}::uuid`,
  );
  return Object.fromEntries(rows.map((row) => [row.event_id, row.partition]));
}

async function partitionNamesIn(year: number): Promise<string[]> {
  return (await listEventPartitions(await getDb())).filter((p) => p.from.getUTCFullYear() === year).map((p) => p.name);
}

async function storedEventIds(projectId: string): Promise<string[]> {
  const rows = await selectRows<{ event_id: string }>(
    await getDb(),
    sql`select event_id::text from analytics_events where project_id = ${projectId}::uuid order by occurred_at`,
  );
  return rows.map((row) => row.event_id);
}

const rowAt = (projectId: string, occurredAt: string) => eventRow(projectId, { occurred_at: occurredAt });
const keysOf = (rows: EventRow[]) => new Set(rows.map((r) => eventKey(r.project_id, r.event_id)));

/** Every row was new: COPY reports "all" on a server; PGlite's INSERT names each row. */
async function expectAllReportedNew(inserted: Inserted, rows: EventRow[]) {
  if ((await getDbDriver()) === "postgres") expect(inserted).toBe("all");
  else expect(inserted).toEqual(keysOf(rows));
}

describe("ensureEventPartitions", () => {
  it("ensureEventPartitions – now in March 2091: creates March, April and May with UTC month bounds; again: creates nothing", async () => {
    const db = await getDb();
    const now = new Date("2091-03-15T12:00:00Z");
    expect(await ensureEventPartitions(db, now)).toEqual(["analytics_events_2091_03", "analytics_events_2091_04", "analytics_events_2091_05"]);
    const partitions = (await listEventPartitions(db)).filter((p) => p.from.getUTCFullYear() === 2091);
    expect(partitions.map(({ name, from, to }) => ({ name, from: from.toISOString(), to: to.toISOString() }))).toEqual([
      { name: "analytics_events_2091_03", from: "2091-03-01T00:00:00.000Z", to: "2091-04-01T00:00:00.000Z" },
      { name: "analytics_events_2091_04", from: "2091-04-01T00:00:00.000Z", to: "2091-05-01T00:00:00.000Z" },
      { name: "analytics_events_2091_05", from: "2091-05-01T00:00:00.000Z", to: "2091-06-01T00:00:00.000Z" },
    ]);
    expect(await ensureEventPartitions(db, now)).toEqual([]);
    expect(await ensureEventPartitions(db, new Date("2091-04-01T00:00:00Z"))).toEqual(["analytics_events_2091_06"]);
    expect(await partitionNamesIn(2091)).toHaveLength(4);
  });

  it("ensureEventPartitions – the last instant of November 2092 (UTC): November, December and January 2093", async () => {
    expect(await ensureEventPartitions(await getDb(), new Date("2092-11-30T23:59:59.999Z"))).toEqual([
      "analytics_events_2092_11",
      "analytics_events_2092_12",
      "analytics_events_2093_01",
    ]);
  });

  it("storeEventRows – rows go to their UTC month's partition, either side of a month boundary", async () => {
    const db = await getDb();
    await ensureEventPartitions(db, new Date("2094-01-10T00:00:00Z"));
    const projectId = randomUUID();
    const rows = [
      rowAt(projectId, "2094-01-31T23:59:59.999Z"),
      rowAt(projectId, "2094-02-01T00:00:00.000Z"),
      // February 1st in Berlin, January 31st in UTC.
      rowAt(projectId, "2094-02-01T00:30:00+01:00"),
      rowAt(projectId, "2094-03-31T22:00:00Z"),
    ];
    await storeEventRows(rows);
    expect(await partitionsOfRows(projectId)).toEqual({
      [rows[0]!.event_id]: "analytics_events_2094_01",
      [rows[1]!.event_id]: "analytics_events_2094_02",
      [rows[2]!.event_id]: "analytics_events_2094_01",
      [rows[3]!.event_id]: "analytics_events_2094_03",
    });
  });

  it("ensureEventPartitions – rows of a month with no partition wait in the default partition, then move into the new one unchanged", async () => {
    const db = await getDb();
    const projectId = randomUUID();
    const early = rowAt(projectId, "2095-06-10T08:00:00Z");
    const later = rowAt(projectId, "2095-06-30T23:59:59.999Z");
    const beyond = rowAt(projectId, "2095-09-01T00:00:00Z");
    await storeEventRows([early, later, beyond]);
    expect(new Set(Object.values(await partitionsOfRows(projectId)))).toEqual(new Set(["analytics_events_default"]));
    const before = await selectRows(db, sql`select * from analytics_events where project_id = ${projectId}::uuid order by event_id`);

    expect(await ensureEventPartitions(db, new Date("2095-06-01T00:00:00Z"))).toEqual([
      "analytics_events_2095_06",
      "analytics_events_2095_07",
      "analytics_events_2095_08",
    ]);
    expect(await partitionsOfRows(projectId)).toEqual({
      [early.event_id]: "analytics_events_2095_06",
      [later.event_id]: "analytics_events_2095_06",
      [beyond.event_id]: "analytics_events_default",
    });
    // Every column, the storing transaction's xid included (the rollup cursor reads it).
    expect(await selectRows(db, sql`select * from analytics_events where project_id = ${projectId}::uuid order by event_id`)).toEqual(before);
  });

  it("ensureEventPartitions – 8 calls at once for months with no partition, while rows of those months arrive: none fails, each partition made once, every row in its month", async () => {
    const db = await getDb();
    const projectId = randomUUID();
    const rows = Array.from({ length: 40 }, (_, i) => rowAt(projectId, `2093-0${5 + (i % 3)}-${String(1 + (i % 28)).padStart(2, "0")}T12:00:00Z`));
    const groups = Array.from({ length: 8 }, (_, i) => rows.slice(i * 5, i * 5 + 5));
    const [created] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => ensureEventPartitions(db, new Date("2093-05-20T00:00:00Z")))),
      Promise.all(groups.map((group) => storeEventRows(group))),
    ]);
    expect(created.flat().sort()).toEqual(["analytics_events_2093_05", "analytics_events_2093_06", "analytics_events_2093_07"]);
    const stored = await partitionsOfRows(projectId);
    expect(Object.keys(stored)).toHaveLength(40);
    for (const row of rows) expect(stored[row.event_id]).toBe(`analytics_events_2093_${row.occurred_at.slice(5, 7)}`);
  });
});

describe("dropExpiredEventPartitions", () => {
  it("dropExpiredEventPartitions – 60 days on 1994-06-20: drops the months that ended by April 21st, keeps April whole, deletes older default rows only", async () => {
    const db = await getDb();
    await ensureEventPartitions(db, new Date("1994-01-15T00:00:00Z"));
    await ensureEventPartitions(db, new Date("1994-04-15T00:00:00Z"));
    const projectId = randomUUID();
    const [january, february, march, april, may, june] = ["01", "02", "03", "04", "05", "06"].map((month) =>
      rowAt(projectId, `1994-${month}-10T10:00:00Z`),
    );
    const oldInDefault = rowAt(projectId, "1993-05-01T00:00:00Z");
    const recentInDefault = rowAt(projectId, "1994-08-20T00:00:00Z");
    await storeEventRows([january!, february!, march!, april!, may!, june!, oldInDefault, recentInDefault]);

    const now = new Date("1994-06-20T00:00:00Z");
    expect(await dropExpiredEventPartitions(db, 60, now)).toEqual({
      droppedPartitions: ["analytics_events_1994_01", "analytics_events_1994_02", "analytics_events_1994_03"],
      deletedDefaultRows: 1,
    });
    expect(await partitionNamesIn(1994)).toEqual(["analytics_events_1994_04", "analytics_events_1994_05", "analytics_events_1994_06"]);
    expect(await storedEventIds(projectId)).toEqual(
      [april!, may!, june!, recentInDefault].map((row) => row.event_id),
    );

    expect(await dropExpiredEventPartitions(db, 60, now)).toEqual({ droppedPartitions: [], deletedDefaultRows: 0 });
    // One day later April is still partly inside; once May 1st is 60 days old, April goes.
    expect((await dropExpiredEventPartitions(db, 60, new Date("1994-06-21T00:00:00Z"))).droppedPartitions).toEqual([]);
    expect((await dropExpiredEventPartitions(db, 60, new Date("1994-06-30T00:00:00Z"))).droppedPartitions).toEqual([
      "analytics_events_1994_04",
    ]);
  });

  it("dropExpiredEventPartitions – default rows exactly at the cut-off stay; those a millisecond older go", async () => {
    const db = await getDb();
    const projectId = randomUUID();
    const atCutoff = rowAt(projectId, "1995-11-01T00:00:00.000Z");
    const before = rowAt(projectId, "1995-10-31T23:59:59.999Z");
    await storeEventRows([atCutoff, before]);
    expect(await dropExpiredEventPartitions(db, 10, new Date("1995-11-11T00:00:00Z"))).toEqual({
      droppedPartitions: [],
      deletedDefaultRows: 1,
    });
    expect(await storedEventIds(projectId)).toEqual([atCutoff.event_id]);
  });

  it("dropExpiredEventPartitions – retention 0: drops nothing, deletes nothing, whatever now is", async () => {
    const db = await getDb();
    await ensureEventPartitions(db, new Date("1995-01-01T00:00:00Z"));
    const projectId = randomUUID();
    const rows = [rowAt(projectId, "1995-01-05T00:00:00Z"), rowAt(projectId, "1990-01-05T00:00:00Z")];
    await storeEventRows(rows);
    expect(await dropExpiredEventPartitions(db, 0, new Date("2999-01-01T00:00:00Z"))).toEqual({ droppedPartitions: [], deletedDefaultRows: 0 });
    expect(await partitionNamesIn(1995)).toEqual(["analytics_events_1995_01", "analytics_events_1995_02", "analytics_events_1995_03"]);
    expect(await storedEventIds(projectId)).toEqual([rows[1]!.event_id, rows[0]!.event_id]);
  });
});

describe("maintainEventPartitions", () => {
  it("maintainEventPartitions – 31 days on 1997-03-10: makes March to May, drops December and January, keeps February", async () => {
    const db = await getDb();
    await ensureEventPartitions(db, new Date("1996-12-05T00:00:00Z"));
    const now = new Date("1997-03-10T00:00:00Z");
    expect(await maintainEventPartitions(db, { analyticsRetentionDays: 31 }, now)).toEqual({
      createdPartitions: ["analytics_events_1997_03", "analytics_events_1997_04", "analytics_events_1997_05"],
      droppedPartitions: ["analytics_events_1996_12", "analytics_events_1997_01"],
      deletedDefaultRows: 0,
    });
    expect(await partitionNamesIn(1996)).toEqual([]);
    expect(await partitionNamesIn(1997)).toEqual([
      "analytics_events_1997_02",
      "analytics_events_1997_03",
      "analytics_events_1997_04",
      "analytics_events_1997_05",
    ]);
    expect(await maintainEventPartitions(db, { analyticsRetentionDays: 31 }, now)).toEqual({
      createdPartitions: [],
      droppedPartitions: [],
      deletedDefaultRows: 0,
    });
  });

  it("startPartitionMaintenance – runs at once; stop() waits for that run, which succeeds", async () => {
    const errors = vi.spyOn(console, "error");
    try {
      await startPartitionMaintenance().stop();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});

describe("storeEventRows – idempotency per (project_id, event_id, occurred_at)", () => {
  it("storeEventRows – the same rows sent again, in a month partition and in the default partition: each stored once, none reported new", async () => {
    await ensureEventPartitions(await getDb(), new Date("2091-08-01T00:00:00Z"));
    const projectId = randomUUID();
    const rows = [rowAt(projectId, "2091-08-02T10:00:00Z"), rowAt(projectId, "2091-09-30T10:00:00Z"), rowAt(projectId, "2091-12-24T10:00:00Z")];
    await expectAllReportedNew(await storeEventRows(rows), rows);
    expect(await storeEventRows(rows)).toEqual(new Set());
    expect(await storeEventRows([...rows].reverse())).toEqual(new Set());
    expect(await storedEventIds(projectId)).toEqual(rows.map((row) => row.event_id));
  });

  it("storeEventRows – a row sent again after its month's partition was made (it moved out of the default partition): still stored once", async () => {
    const db = await getDb();
    const projectId = randomUUID();
    const row = rowAt(projectId, "2092-03-03T03:03:03Z");
    await storeEventRows([row]);
    expect((await partitionsOfRows(projectId))[row.event_id]).toBe("analytics_events_default");
    await ensureEventPartitions(db, new Date("2092-03-01T00:00:00Z"));
    expect(await storeEventRows([row])).toEqual(new Set());
    expect(await partitionsOfRows(projectId)).toEqual({ [row.event_id]: "analytics_events_2092_03" });
  });

  it("storeEventRows – the same event_id with another occurred_at: another row (a retry resends the same envelope; a new occurred_at is a new event)", async () => {
    await ensureEventPartitions(await getDb(), new Date("2091-08-01T00:00:00Z"));
    const projectId = randomUUID();
    const row = rowAt(projectId, "2091-08-02T10:00:00Z");
    const moved = { ...row, occurred_at: "2091-09-02T10:00:00Z" };
    await storeEventRows([row]);
    await expectAllReportedNew(await storeEventRows([moved]), [moved]);
    expect(await storedEventIds(projectId)).toEqual([row.event_id, row.event_id]);
  });
});
