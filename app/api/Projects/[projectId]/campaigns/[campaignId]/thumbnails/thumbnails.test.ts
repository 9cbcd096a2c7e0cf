import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, schema } from "@/lib/db";
import { viewerHashOf } from "@/lib/analytics/viewer-hash";
import { assignVariant } from "@/lib/experiments/assign";
import { getRenderQueue } from "@/lib/renders/queue";
import { thumbnailPageSchema } from "@/lib/renders/contract";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { GET as downloadRoute } from "@/app/api/renders/[renderId]/download/route";
import { PUT as putShareRoute } from "@/app/api/Projects/[projectId]/public-video-shares/[channel]/route";
import { errorPaths, okJson, problemOf, uploadSmall } from "@/testing/template-api";
import { GET, POST } from "./route";

// Campaign thumbnails on the run's database with the process's real queue and ffmpeg. Campaigns
// and recipients are written directly (their API belongs to lib/campaigns).

let projectId: string;
let editor: string;
let campaignId: string;
let slug: string;
const names = ["Ana", "Bruno"];

beforeAll(async () => {
  const { project } = await createTestProject("Thumbnails");
  projectId = project.id;
  editor = (await createTestMember("Editor", { projectId })).token;
  const manager = (await createTestMember("ProjectManager", { projectId })).token;
  await uploadSmall(editor, projectId, "Thumbnail template"); // DEV serves the newest Testing template
  const credential = await okJson<{ id: string }>(await createCredentialRoute(apiRequest("POST", "/api/credentials", { token: manager, body: { projectId } }), routeParams({})), 201);
  const body = { publicTitle: "Hello", personalizationData: { title: "Hi there" }, apiCredentialId: credential.id };
  const share = await putShareRoute(
    apiRequest("PUT", `/api/Projects/${projectId}/public-video-shares/DEV`, { token: manager, body }),
    routeParams({ projectId, channel: "DEV" }),
  );
  slug = (await okJson<{ slug: string }>(share, 201)).slug;
  const db = await getDb();
  const [campaign] = await db.insert(schema.campaigns).values({ projectId, channel: "DEV", name: "Spring" }).returning();
  campaignId = campaign!.id;
  await db.insert(schema.campaignRecipients).values(
    names.map((name) => ({
      campaignId,
      projectId,
      externalId: name,
      email: `${name.toLowerCase()}@example.com`,
      data: { title: `Hi ${name}` },
      token: randomBytes(16).toString("base64url"),
      viewerHash: randomBytes(32).toString("hex"),
    })),
  );
  await getRenderQueue().start();
});

afterAll(async () => {
  await getRenderQueue().stop();
});

const url = () => `/api/Projects/${projectId}/campaigns/${campaignId}/thumbnails`;
const post = (id = campaignId) => POST(apiRequest("POST", url(), { token: editor }), routeParams({ projectId, campaignId: id }));
const list = (query = "") => GET(apiRequest("GET", `${url()}${query}`, { token: editor }), routeParams({ projectId, campaignId }));

describe("campaign thumbnails", () => {
  it("one GIF per recipient, linking to the recipient's URL; a second call queues nothing more", async () => {
    expect(thumbnailPageSchema.parse(await okJson(await list())).summary).toEqual({ recipients: 2, done: 0, pending: 0, failed: 0, outdated: 0 });
    expect(await okJson(await post(), 202)).toMatchObject({ campaignId, recipients: 2, queued: 2 });
    expect(await okJson(await post(), 202)).toMatchObject({ queued: 0 });
    // One audit row for the queueing, none for the call that queued nothing.
    const thumbnailsQueued = and(eq(schema.auditEvents.targetId, campaignId), eq(schema.auditEvents.action, "campaign.thumbnails_queued"));
    const audits = await (await getDb()).select().from(schema.auditEvents).where(thumbnailsQueued);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ projectId, targetType: "campaign", data: { name: "Spring", channel: "DEV", queued: 2 } });
    // Polled until every thumbnail is done; the cap only guards against a hang.
    const page = await vi.waitFor(
      async () => {
        const current = thumbnailPageSchema.parse(await okJson(await list()));
        if (current.items.some((item) => item.status === "failed")) return current;
        if (current.items.some((item) => item.status !== "done")) throw new Error("thumbnails still rendering");
        return current;
      },
      { timeout: 100_000, interval: 100 },
    );
    expect(page.items).toHaveLength(2);
    expect(page.summary).toEqual({ recipients: 2, done: 2, pending: 0, failed: 0, outdated: 0 });
    for (const item of page.items) {
      expect(item.status).toBe("done");
      expect(item.outdated).toBe(false);
      expect(item.recipientUrl).toMatch(new RegExp(`/v/${slug}/[A-Za-z0-9_-]+$`));
      expect(item.html).toBe(`<a href="${item.recipientUrl}"><img src="${item.thumbnailUrl!.replace(/&/g, "&amp;")}" width="320" height="180" alt="Play the video"></a>`);
      const response = await downloadRoute(new Request(item.thumbnailUrl!), routeParams({ renderId: item.renderId! }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/gif");
      expect(response.headers.get("content-disposition")).toMatch(/^inline;/);
    }
    // The recipient's data over the share's: each render carries its own name.
    const db = await getDb();
    const rows = await db.select().from(schema.renders);
    const mine = rows.filter((row) => row.campaignId === campaignId);
    expect(mine.map((row) => row.data.title).sort()).toEqual(["Hi Ana", "Hi Bruno"]);
    expect(mine.every((row) => row.purpose === "thumbnail" && row.format === "gif")).toBe(true);
  });

  it("a recipient whose data changed has an outdated thumbnail, and only theirs is queued again", async () => {
    const db = await getDb();
    const [bruno] = await db
      .update(schema.campaignRecipients)
      .set({ data: { title: "Hi Bruno Costa" } })
      .where(and(eq(schema.campaignRecipients.campaignId, campaignId), eq(schema.campaignRecipients.externalId, "Bruno")))
      .returning();
    const stale = thumbnailPageSchema.parse(await okJson(await list()));
    expect(stale.summary).toMatchObject({ done: 2, outdated: 1 });
    expect(stale.items.filter((item) => item.outdated).map((item) => item.recipientId)).toEqual([bruno!.id]);
    expect(await okJson(await post(), 202)).toMatchObject({ queued: 1 });
    const fresh = await vi.waitFor(
      async () => {
        const current = thumbnailPageSchema.parse(await okJson(await list()));
        if (current.summary.pending > 0) throw new Error("thumbnail still rendering");
        return current;
      },
      { timeout: 100_000, interval: 100 },
    );
    expect(fresh.summary).toEqual({ recipients: 2, done: 2, pending: 0, failed: 0, outdated: 0 });
    const renders = await db.select().from(schema.renders).where(eq(schema.renders.recipientId, bruno!.id));
    expect(renders.map((row) => row.data.title).sort()).toEqual(["Hi Bruno", "Hi Bruno Costa"]);
  });

  it("while the share runs an A/B test, each recipient's thumbnail is of the variant their page plays", async () => {
    const db = await getDb();
    const [share] = await db.select().from(schema.publicVideoShares).where(eq(schema.publicVideoShares.slug, slug));
    const served = (await db.select().from(schema.renders).where(eq(schema.renders.campaignId, campaignId)))[0]!.templateId;
    const other = await uploadSmall(editor, projectId, "Variant B");
    const variants = [
      { shareId: share!.id, projectId, templateId: served, weight: 50, position: 0 },
      { shareId: share!.id, projectId, templateId: other.id, weight: 50, position: 1 },
    ];
    await db.insert(schema.shareVariants).values(variants);
    try {
      await okJson(await post(), 202);
      const recipients = await db.select().from(schema.campaignRecipients).where(eq(schema.campaignRecipients.campaignId, campaignId));
      const latest = await db.select().from(schema.renders).where(eq(schema.renders.campaignId, campaignId)).orderBy(desc(schema.renders.createdAt));
      for (const recipient of recipients) {
        const expected = assignVariant(share!.id, `viewer:${viewerHashOf(projectId, recipient.id)}`, variants)!.templateId;
        expect(latest.find((render) => render.recipientId === recipient.id)!.templateId).toBe(expected);
      }
      // Queued again at once: each has its variant's thumbnail already (or on its way).
      expect(await okJson(await post(), 202)).toMatchObject({ queued: 0 });
    } finally {
      await db.delete(schema.shareVariants).where(eq(schema.shareVariants.shareId, share!.id));
    }
  });

  it("pages by cursor", async () => {
    const first = thumbnailPageSchema.parse(await okJson(await list("?limit=1")));
    expect(first.items).toHaveLength(1);
    const second = thumbnailPageSchema.parse(await okJson(await list(`?limit=1&cursor=${first.nextCursor}`)));
    expect(second.items[0]!.recipientId).not.toBe(first.items[0]!.recipientId);
    expect(errorPaths(await problemOf(await list("?cursor=nope"), 422))).toEqual(["cursor"]);
  });

  it("404 for an unknown campaign", async () => {
    await problemOf(await post(randomUUID()), 404);
  });
});
