import { randomBytes, randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "@/lib/db";
import { buildPageManifest } from "@/lib/embed/page-manifest";
import { viewerHashOf } from "@/lib/analytics/viewer-hash";
import { assignVariant } from "@/lib/experiments/assign";
import type { z } from "zod";
import type { variantsSchema } from "@/lib/releases/contract";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { POST as createSessionRoute } from "@/app/api/embed-sessions/route";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { archive, deploy, errorPaths, okJson, problemOf, uploadSmall } from "@/testing/template-api";
import { PUT as putShareRoute } from "../route";
import { POST as promoteRoute } from "./promote/route";
import { GET as getRoute, PUT as putRoute } from "./route";

// A share's A/B test (issue 36, docs/adr/0150-release-control.md) on the run's database: set
// through the API, served per viewer (the landing page's cookie, a campaign recipient) sticky and
// as the assignment says, promoted (the winner goes live, the test ends).

type Variants = z.infer<typeof variantsSchema>;

let projectId: string;
let manager: string;
let editor: string;
let shareId: string;
let slug: string;
let live: { id: string; version: string };
let candidate: { id: string };
let basic: string;

beforeAll(async () => {
  const { project } = await createTestProject("Variants");
  projectId = project.id;
  manager = (await createTestMember("ProjectManager", { projectId })).token;
  editor = (await createTestMember("Editor", { projectId })).token;
  live = await uploadSmall(manager, projectId, "Live");
  await okJson(await deploy(manager, projectId, live.id));
  candidate = await uploadSmall(manager, projectId, "Candidate");
  const credential = await okJson<{ id: string; apiKey: string; apiSecret: string }>(
    await createCredentialRoute(apiRequest("POST", "/api/credentials", { token: manager, body: { projectId } }), routeParams({})),
    201,
  );
  basic = `Basic ${Buffer.from(`${credential.apiKey}:${credential.apiSecret}`).toString("base64")}`;
  const share = await okJson<{ id: string; slug: string }>(
    await putShareRoute(apiRequest("PUT", `/api/Projects/${projectId}/public-video-shares/PROD`, { token: manager, body: { publicTitle: "Hello", apiCredentialId: credential.id } }), routeParams({ projectId, channel: "PROD" })),
    201,
  );
  shareId = share.id;
  slug = share.slug;
});

const url = `/api/Projects/{projectId}/public-video-shares/PROD/variants`;
const put = (variants: unknown, token = manager) =>
  putRoute(apiRequest("PUT", url.replace("{projectId}", projectId), { token, body: { variants } }), routeParams({ projectId, channel: "PROD" }));
const get = () => getRoute(apiRequest("GET", url.replace("{projectId}", projectId), { token: editor }), routeParams({ projectId, channel: "PROD" }));
const promote = (templateId: string) =>
  promoteRoute(apiRequest("POST", `${url.replace("{projectId}", projectId)}/promote`, { token: manager, body: { templateId } }), routeParams({ projectId, channel: "PROD" }));
const servedFor = async (viewer: string) => (await buildPageManifest(await getDb(), { share: slug, address: "192.0.2.1", viewer })).template?.id;

describe("a share's A/B test", () => {
  it("refuses what is not a test: one variant, weights not adding to 100, a template twice, another project's or an Archived one; an Editor; nothing stored", async () => {
    const archived = await uploadSmall(manager, projectId, "Archived");
    await okJson(await archive(manager, projectId, archived.id));
    const cases: [unknown, string[]][] = [
      [[{ templateId: live.id, weight: 99 }], ["variants"]],
      [[{ templateId: live.id, weight: 50 }, { templateId: candidate.id, weight: 40 }], ["variants"]],
      [[{ templateId: live.id, weight: 50 }, { templateId: live.id, weight: 50 }], ["variants"]],
      [[{ templateId: live.id, weight: 50 }, { templateId: randomUUID(), weight: 50 }], ["variants.1.templateId"]],
      [[{ templateId: archived.id, weight: 50 }, { templateId: live.id, weight: 50 }], ["variants.0.templateId"]],
      [[{ templateId: live.id, weight: 0 }, { templateId: candidate.id, weight: 100 }], ["variants.0.weight", "variants.1.weight"]],
    ];
    for (const [variants, paths] of cases) expect([...new Set(errorPaths(await problemOf(await put(variants), 422)))]).toEqual(paths);
    await problemOf(await put([{ templateId: live.id, weight: 50 }, { templateId: candidate.id, weight: 50 }], editor), 403);
    expect(await okJson<Variants>(await get())).toMatchObject({ startedAt: null, variants: [] });
  });

  it("50/50: each viewer is served the variant the assignment gives them, every time; both are served; a recipient-less viewer without a cookie gets the control", async () => {
    const started = await okJson<Variants>(await put([{ templateId: live.id, weight: 50 }, { templateId: candidate.id, weight: 50 }]));
    expect(started.variants.map((variant) => [variant.template.id, variant.weight])).toEqual([[live.id, 50], [candidate.id, 50]]);
    expect(started.startedAt).not.toBeNull();
    const rows = [
      { templateId: live.id, weight: 50, position: 0 },
      { templateId: candidate.id, weight: 50, position: 1 },
    ];
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const cookie = randomUUID();
      const first = await servedFor(cookie);
      expect(first).toBe(assignVariant(shareId, `cookie:${cookie}`, rows)!.templateId);
      expect(await servedFor(cookie)).toBe(first);
      seen.add(first!);
    }
    expect(seen).toEqual(new Set([live.id, candidate.id]));
    expect((await buildPageManifest(await getDb(), { share: slug, address: "192.0.2.1" })).template?.id).toBe(live.id);
  });

  it("a campaign recipient's page plays the recipient's variant", async () => {
    const db = await getDb();
    const [campaign] = await db.insert(schema.campaigns).values({ projectId, channel: "PROD", name: "A/B" }).returning();
    const tokens = Array.from({ length: 12 }, () => randomBytes(32).toString("base64url"));
    const recipients = await db
      .insert(schema.campaignRecipients)
      .values(tokens.map((token, i) => ({ campaignId: campaign!.id, projectId, externalId: `r${i}`, data: {}, token, viewerHash: randomBytes(32).toString("hex") })))
      .returning();
    const variants = await db.select().from(schema.shareVariants).where(eq(schema.shareVariants.shareId, shareId)).orderBy(asc(schema.shareVariants.position));
    for (const recipient of recipients) {
      const manifest = await buildPageManifest(db, { share: slug, address: "192.0.2.1", recipient: recipient.token });
      expect(manifest.template?.id).toBe(assignVariant(shareId, `viewer:${viewerHashOf(projectId, recipient.id)}`, variants)!.templateId);
    }
  });

  it("an embed session minted for a viewer id plays that viewer's variant in every session; one without plays the same variant while it lasts", async () => {
    const db = await getDb();
    const variants = await db.select().from(schema.shareVariants).where(eq(schema.shareVariants.shareId, shareId)).orderBy(asc(schema.shareVariants.position));
    const session = async (viewerId?: string) => {
      const request = new Request("http://localhost:3000/api/embed-sessions", {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({ channel: "PROD", ...(viewerId ? { viewerId } : {}) }),
      });
      return (await okJson<{ token: string }>(await createSessionRoute(request, routeParams({})), 201)).token;
    };
    for (const viewerId of ["crm-42", "crm-43", "ana@example.com"]) {
      const expected = assignVariant(shareId, `viewer:${viewerHashOf(projectId, viewerId)}`, variants)!.templateId;
      for (let again = 0; again < 2; again++) expect((await buildPageManifest(db, { session: await session(viewerId) })).template?.id).toBe(expected);
    }
    const anonymous = await session();
    const first = (await buildPageManifest(db, { session: anonymous })).template?.id;
    expect((await buildPageManifest(db, { session: anonymous })).template?.id).toBe(first);
  });

  it("changing only the weights keeps the start; promote makes the winner Production and ends the test; everyone then sees it", async () => {
    const before = await okJson<Variants>(await get());
    const reweighed = await okJson<Variants>(await put([{ templateId: live.id, weight: 20 }, { templateId: candidate.id, weight: 80 }]));
    expect(reweighed.startedAt).toBe(before.startedAt);
    expect(await okJson<Variants>(await promote(candidate.id))).toMatchObject({ variants: [], startedAt: null });
    const [winner] = await (await getDb()).select().from(schema.templates).where(eq(schema.templates.id, candidate.id));
    expect(winner!.status).toBe("Production");
    for (let i = 0; i < 5; i++) expect(await servedFor(randomUUID())).toBe(candidate.id);
    const trail = await (await getDb()).select().from(schema.auditEvents).where(eq(schema.auditEvents.projectId, projectId)).orderBy(asc(schema.auditEvents.createdAt), asc(schema.auditEvents.id));
    const actions = trail.map((event) => event.action).filter((action) => action.startsWith("share.test") || action === "template.deployed");
    expect(actions.slice(-4, -2)).toEqual(["share.test_started", "share.test_changed"]);
    // The promote's two rows share one transaction (and its instant): in either order.
    expect(actions.slice(-2).sort()).toEqual(["share.test_promoted", "template.deployed"]);
    expect((await problemOf(await promote(candidate.id), 409)).code).toBe("no_test");
  });
});
