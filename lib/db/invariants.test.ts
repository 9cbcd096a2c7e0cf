import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { toAppError } from "@/lib/errors";
import { randomBase62, sha256Hex } from "@/lib/auth/secrets";
import { getDb, type Db } from "@/lib/db";
import {
  analyticsEvents,
  apiCredentials,
  memberships,
  publicVideoShares,
  shareSlugs,
  templates,
  users,
} from "@/lib/db/schema";
import { createTestProject, createTestProjectIn } from "@/testing/factories";
import { sqlState } from "@/testing/sql-state";

// The database, not application code, must hold these invariants when requests race:
// every case fires concurrent inserts through the shared pool and expects one winner.

const attempts = 10;

let db: Db;
let home: Awaited<ReturnType<typeof createTestProject>>;

beforeAll(async () => {
  db = await getDb();
  home = await createTestProject();
});


/** Runs every insert at once and sorts the outcomes. */
async function race(inserts: (() => Promise<unknown>)[]) {
  const results = await Promise.allSettled(inserts.map((insert) => insert()));
  const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  return { succeeded: results.length - refused.length, refused, states: refused.map(sqlState) };
}

function times<T>(count: number, make: (i: number) => T): T[] {
  return Array.from({ length: count }, (_, i) => make(i));
}

/** A project of the home organization with an API credential, ready to hold shares. */
async function createShareProject() {
  const project = await createTestProjectIn(home.organization.id, `Shares ${randomUUID().slice(0, 8)}`);
  const [credential] = await db
    .insert(apiCredentials)
    .values({ projectId: project.id, apiKey: `pk_${randomBase62(24)}`, secretHash: sha256Hex(randomUUID()) })
    .returning();
  return { projectId: project.id, credentialId: credential!.id };
}

async function issueSlugs(count: number): Promise<string[]> {
  const slugs = times(count, () => `slug-${randomBase62(16)}`);
  await db.insert(shareSlugs).values(slugs.map((slug) => ({ slug, shareId: randomUUID() })));
  return slugs;
}

type ShareTarget = Awaited<ReturnType<typeof createShareProject>>;
type Channel = "DEV" | "STAGING" | "PROD";

const insertShare = (target: ShareTarget, channel: Channel, slug: string) => () =>
  db.insert(publicVideoShares).values({
    projectId: target.projectId,
    channel,
    slug,
    publicTitle: "Welcome",
    apiCredentialId: target.credentialId,
  });

const insertTemplate = (projectId: string, status: "Testing" | "Production") => () =>
  db.insert(templates).values({ projectId, name: "Greeting", kind: "Raster", status, everProduction: status === "Production" });

describe("public_video_shares – one share per (project, channel)", () => {
  it(`${attempts} concurrent inserts of PROD in one project → one succeeds, the rest 23505`, async () => {
    const target = await createShareProject();
    const slugs = await issueSlugs(attempts);
    const outcome = await race(slugs.map((slug) => insertShare(target, "PROD", slug)));
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
    const rows = await db.select().from(publicVideoShares).where(eq(publicVideoShares.projectId, target.projectId));
    expect(rows.map((r) => r.channel)).toEqual(["PROD"]);
  });

  it("concurrent inserts of DEV, STAGING and PROD in one project → all three succeed", async () => {
    const target = await createShareProject();
    const slugs = await issueSlugs(3);
    const channels: Channel[] = ["DEV", "STAGING", "PROD"];
    const outcome = await race(channels.map((channel, i) => insertShare(target, channel, slugs[i]!)));
    expect(outcome).toMatchObject({ succeeded: 3, refused: [] });
  });
});

describe("public_video_shares – the credential belongs to the share's project", () => {
  it("a share using another project's credential → refused with 23503", async () => {
    const mine = await createShareProject();
    const theirs = await createShareProject();
    const [slug] = await issueSlugs(1);
    const outcome = await race([insertShare({ projectId: mine.projectId, credentialId: theirs.credentialId }, "PROD", slug!)]);
    expect(outcome).toMatchObject({ succeeded: 0, states: ["23503"] });
  });
});

describe("share_slugs – a slug is issued once, forever", () => {
  it(`${attempts} concurrent issues of one new slug → one succeeds, the rest 23505`, async () => {
    const slug = `slug-${randomBase62(16)}`;
    const outcome = await race(times(attempts, () => () => db.insert(shareSlugs).values({ slug, shareId: randomUUID() })));
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
  });

  it(`${attempts} concurrent re-issues of a retired slug → all 23505, the retired row unchanged`, async () => {
    const slug = `slug-${randomBase62(16)}`;
    const retiredAt = new Date("2025-01-02T03:04:05.678Z");
    const originalShare = randomUUID();
    await db.insert(shareSlugs).values({ slug, shareId: originalShare, retiredAt });

    const outcome = await race(times(attempts, () => () => db.insert(shareSlugs).values({ slug, shareId: randomUUID() })));
    expect(outcome.succeeded).toBe(0);
    expect(outcome.states).toEqual(times(attempts, () => "23505"));
    const rows = await db.select().from(shareSlugs).where(eq(shareSlugs.slug, slug));
    expect(rows).toEqual([expect.objectContaining({ shareId: originalShare, retiredAt })]);
  });

  it(`${attempts} concurrent shares in different projects using one slug → one succeeds, the rest 23505`, async () => {
    const targets = await Promise.all(times(attempts, () => createShareProject()));
    const [slug] = await issueSlugs(1);
    const outcome = await race(targets.map((target) => insertShare(target, "PROD", slug!)));
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
    const rows = await db.select().from(publicVideoShares).where(eq(publicVideoShares.slug, slug!));
    expect(rows).toHaveLength(1);
  });

  it("a share whose slug was never issued → refused with 23503", async () => {
    const target = await createShareProject();
    const outcome = await race([insertShare(target, "DEV", `slug-${randomBase62(16)}`)]);
    expect(outcome.states).toEqual(["23503"]);
  });
});

describe("templates – at most one Production template per project", () => {
  it(`${attempts} concurrent Production inserts in one project → one succeeds, the rest 23505`, async () => {
    const { project } = await createTestProject();
    const outcome = await race(times(attempts, () => insertTemplate(project.id, "Production")));
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
    const rows = await db
      .select()
      .from(templates)
      .where(and(eq(templates.projectId, project.id), eq(templates.status, "Production")));
    expect(rows).toHaveLength(1);
  });

  it(`${attempts} concurrent Testing inserts in one project that already has a Production template → all succeed`, async () => {
    const { project } = await createTestProject();
    await insertTemplate(project.id, "Production")();
    const outcome = await race(times(attempts, () => insertTemplate(project.id, "Testing")));
    expect(outcome).toMatchObject({ succeeded: attempts, refused: [] });
  });

  it(`${attempts} concurrent Production inserts in ${attempts} different projects → all succeed`, async () => {
    const projects = await Promise.all(
      times(attempts, (i) => createTestProjectIn(home.organization.id, `Production ${i}`)),
    );
    const outcome = await race(projects.map((project) => insertTemplate(project.id, "Production")));
    expect(outcome).toMatchObject({ succeeded: attempts, refused: [] });
    const rows = await db
      .select({ projectId: templates.projectId })
      .from(templates)
      .where(and(inArray(templates.projectId, projects.map((p) => p.id)), eq(templates.status, "Production")));
    expect(rows).toHaveLength(attempts);
  });

  it("a Production template with everProduction false → refused with 23514", async () => {
    const { project } = await createTestProject();
    const outcome = await race([
      () => db.insert(templates).values({ projectId: project.id, name: "Greeting", kind: "Raster", status: "Production" }),
    ]);
    expect(outcome.states).toEqual(["23514"]);
  });
});

describe("analytics_events – one row per (project, event_id, occurred_at): a retry resends the same envelope", () => {
  const occurredAt = new Date();
  const insertEvent = (organizationId: string, projectId: string, eventId: string) => () =>
    db.insert(analyticsEvents).values({
      organizationId,
      projectId,
      eventId,
      eventType: "view",
      occurredAt,
      receivedAt: new Date(),
      payload: {},
    });

  it(`${attempts} concurrent inserts of one event id → one succeeds, the rest 23505`, async () => {
    const eventId = randomUUID();
    const outcome = await race(times(attempts, () => insertEvent(home.organization.id, home.project.id, eventId)));
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
  });

  it("the same event id in two projects → both succeed", async () => {
    const { organization, project } = await createTestProject();
    const eventId = randomUUID();
    const outcome = await race([
      insertEvent(home.organization.id, home.project.id, eventId),
      insertEvent(organization.id, project.id, eventId),
    ]);
    expect(outcome).toMatchObject({ succeeded: 2, refused: [] });
  });
});

describe("users and memberships", () => {
  it(`${attempts} concurrent users whose emails differ only in case → one succeeds, the rest 23505`, async () => {
    const local = `race-${randomUUID()}`;
    const outcome = await race(
      times(attempts, (i) => () => db.insert(users).values({ email: `${i % 2 ? local.toUpperCase() : local}@Test.example` })),
    );
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
  });

  it(`${attempts} concurrent memberships of one user on one project → one succeeds, the rest 23505`, async () => {
    const [user] = await db.insert(users).values({ email: `member-${randomUUID()}@test.example` }).returning();
    const outcome = await race(
      times(attempts, () => () => db.insert(memberships).values({ userId: user!.id, projectId: home.project.id, role: "Viewer" })),
    );
    expect(outcome.succeeded).toBe(1);
    expect(outcome.states).toEqual(times(attempts - 1, () => "23505"));
  });

  it.each([
    { name: "both organizationId and projectId", scope: "both" },
    { name: "neither organizationId nor projectId", scope: "neither" },
  ] as const)("a membership with $name → refused with 23514", async ({ scope }) => {
    const [user] = await db.insert(users).values({ email: `scope-${randomUUID()}@test.example` }).returning();
    const ids =
      scope === "both" ? { organizationId: home.organization.id, projectId: home.project.id } : { organizationId: null, projectId: null };
    const outcome = await race([() => db.insert(memberships).values({ userId: user!.id, role: "Editor", ...ids })]);
    expect(outcome.states).toEqual(["23514"]);
    expect(await db.select().from(memberships).where(eq(memberships.userId, user!.id))).toEqual([]);
  });
});

describe("toAppError – database constraint violations", () => {
  it("a unique violation → 409 conflict naming the constraint", async () => {
    const { project } = await createTestProject();
    const outcome = await race(times(2, () => insertTemplate(project.id, "Production")));
    const error = toAppError(outcome.refused[0]);
    expect({ kind: error.kind, code: error.code }).toEqual({ kind: "conflict", code: "conflict" });
    expect(error.message).toContain("templates_one_production_per_project");
  });

  it("a check violation → 422 validation_failed naming the constraint", async () => {
    const [user] = await db.insert(users).values({ email: `check-${randomUUID()}@test.example` }).returning();
    const outcome = await race([
      () =>
        db
          .insert(memberships)
          .values({ userId: user!.id, organizationId: home.organization.id, projectId: home.project.id, role: "Viewer" }),
    ]);
    const error = toAppError(outcome.refused[0]);
    expect({ kind: error.kind, code: error.code }).toEqual({ kind: "validation_failed", code: "validation_failed" });
    expect(error.errors).toEqual([{ path: "", message: "violates memberships_scope_check" }]);
  });
});
