import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { PUT as putShareRoute } from "@/app/api/Projects/[projectId]/public-video-shares/[channel]/route";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { campaignRecipients, campaigns, publicVideoShares, recipientPosters } from "@/lib/db/schema";
import { buildPageManifest } from "@/lib/embed/page-manifest";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { makeLottie, textLayer } from "@/testing/fixtures/lottie-builders";
import { okJson, problemOf, uploadWithManifest } from "@/testing/template-api";
import { POST as createEmbedSessionRoute } from "../embed-sessions/route";
import { GET as sharePosterRoute } from "./posters/[slug]/route";
import { GET as recipientPosterRoute } from "./posters/[slug]/[token]/route";

// GET /api/embed/posters/{slug}/{token}: a campaign recipient's poster, rendered with their data
// once and found again in the blob store; and the share's texts filled per viewer.

type Share = { id: string; slug: string };
type Recipient = { id: string; token: string };

let projectId: string;
let admin: string;
let credential: { id: string; apiKey: string; apiSecret: string };
let share: Share;
let zoe: Recipient;
let bruno: Recipient;

const getPoster = (slug: string, token: string, headers: Record<string, string> = {}) =>
  recipientPosterRoute(new Request(`http://localhost/api/embed/posters/${slug}/${token}`, { headers }), routeParams({ slug, token }));

/** Recipients made as an import leaves them (the import itself is tested in campaigns.test.ts). */
async function addRecipients(channel: "DEV", people: Record<string, string>[]): Promise<Recipient[]> {
  const db = await getDb();
  const [campaign] = await db.insert(campaigns).values({ projectId, channel, name: "Posters" }).returning();
  return db
    .insert(campaignRecipients)
    .values(
      people.map((data, index) => ({
        campaignId: campaign!.id,
        projectId,
        externalId: `r${index}`,
        data,
        token: randomBytes(32).toString("base64url"),
        viewerHash: randomBytes(32).toString("hex"),
      })),
    )
    .returning({ id: campaignRecipients.id, token: campaignRecipients.token });
}

/** Every blob the store holds (the local driver: one file each under blobs/sha256/). */
function storedBlobs(): string[] {
  const root = path.join(getConfig().dataDir, "blobs", "sha256");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

beforeAll(async () => {
  const { organization, project } = await createTestProject("Recipient posters");
  projectId = project.id;
  admin = (await createTestMember("OrganizationAdmin", { organizationId: organization.id })).token;
  const lottie = makeLottie({ w: 320, h: 180, layers: [textLayer("Name", "Name", { size: 48 })] });
  await uploadWithManifest(admin, projectId, "Greeting", lottie, { version: 1, fields: [{ key: "firstName", type: "text", target: { layer: "Name" } }] });
  credential = await okJson(await createCredentialRoute(apiRequest("POST", "/api/credentials", { token: admin, body: { projectId } }), routeParams({})), 201);
  const body = {
    publicTitle: "Hi {{firstName|there}}",
    publicSubtitle: "A video for {{ firstName }} in {{city|your town}}",
    ctaLabel: "Book, {{firstName}}",
    ctaUrl: "https://example.com/book",
    personalizationData: { firstName: "Ana" },
    apiCredentialId: credential.id,
  };
  share = await okJson<Share>(
    await putShareRoute(apiRequest("PUT", `/api/Projects/${projectId}/public-video-shares/DEV`, { token: admin, body }), routeParams({ projectId, channel: "DEV" })),
    201,
  );
  [zoe, bruno] = (await addRecipients("DEV", [{ firstName: "Zoe", city: "Porto" }, { firstName: "Bruno" }])) as [Recipient, Recipient];
});

describe("GET /api/embed/posters/{slug}/{token}", () => {
  it("GET /api/embed/posters/{slug}/{token} – a PNG rendered with each recipient's data: different bytes per recipient, and from the share's poster", async () => {
    const first = await getPoster(share.slug, zoe.token);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("cache-control")).toBe("private, max-age=300");
    const zoePng = Buffer.from(await first.arrayBuffer());
    expect(zoePng.subarray(1, 4).toString("latin1")).toBe("PNG");
    const brunoPng = Buffer.from(await (await getPoster(share.slug, bruno.token)).arrayBuffer());
    expect(brunoPng.subarray(1, 4).toString("latin1")).toBe("PNG");
    const sharePng = Buffer.from(await (await sharePosterRoute(new Request(`http://localhost/api/embed/posters/${share.slug}`), routeParams({ slug: share.slug }))).arrayBuffer());
    expect(zoePng.equals(brunoPng)).toBe(false);
    expect(zoePng.equals(sharePng)).toBe(false);
    expect(brunoPng.equals(sharePng)).toBe(false);
  });

  it("GET /api/embed/posters/{slug}/{token} – rendered once per recipient: one stored file each, and the next request serves it", async () => {
    const db = await getDb();
    const blobsBefore = new Set(storedBlobs());
    const [carla] = await addRecipients("DEV", [{ firstName: "Carla" }]);
    const firstPng = Buffer.from(await (await getPoster(share.slug, carla!.token)).arrayBuffer());
    const secondPng = Buffer.from(await (await getPoster(share.slug, carla!.token)).arrayBuffer());
    expect(secondPng.equals(firstPng)).toBe(true);
    const added = storedBlobs().filter((name) => !blobsBefore.has(name));
    const rows = await db.select().from(recipientPosters).where(eq(recipientPosters.recipientId, carla!.id));
    expect(rows).toHaveLength(1);
    expect(added).toEqual([rows[0]!.sha256]);

    // The row is what the next request reads: pointed at another stored PNG (Bruno's), it serves that one, unrendered.
    const [brunoRow] = await db.select().from(recipientPosters).where(eq(recipientPosters.recipientId, bruno.id));
    await db.update(recipientPosters).set({ sha256: brunoRow!.sha256 }).where(eq(recipientPosters.recipientId, carla!.id));
    const served = await getPoster(share.slug, carla!.token);
    expect(served.headers.get("etag")).toBe(`"${brunoRow!.sha256}"`);
    expect(storedBlobs().filter((name) => !blobsBefore.has(name))).toEqual([rows[0]!.sha256]);
  });

  it("GET /api/embed/posters/{slug}/{token} – the share's locale is part of what a stored poster was rendered for: another locale renders again", async () => {
    const db = await getDb();
    const [dan] = await addRecipients("DEV", [{ firstName: "Dan" }]);
    const hashOf = async () => (await db.select().from(recipientPosters).where(eq(recipientPosters.recipientId, dan!.id)))[0]!.dataHash;
    expect((await getPoster(share.slug, dan!.token)).status).toBe(200);
    const before = await hashOf();
    await db.update(publicVideoShares).set({ locale: "de-DE" }).where(eq(publicVideoShares.id, share.id));
    try {
      expect((await getPoster(share.slug, dan!.token)).status).toBe(200);
      expect(await hashOf()).not.toBe(before);
    } finally {
      await db.update(publicVideoShares).set({ locale: null }).where(eq(publicVideoShares.id, share.id));
    }
  });

  it("GET /api/embed/posters/{slug}/{token} – If-None-Match with its ETag → 304 without a body", async () => {
    const response = await getPoster(share.slug, zoe.token);
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const notModified = await getPoster(share.slug, zoe.token, { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect(await notModified.text()).toBe("");
  });

  it.each([
    ["an unknown token", () => [share.slug, randomBytes(32).toString("base64url")]],
    ["a malformed token", () => [share.slug, "not-a-token"]],
    ["an unknown slug", () => ["nosuchslug", zoe.token]],
  ])("GET /api/embed/posters/{slug}/{token} – %s → 404", async (_case, target) => {
    const [slug, token] = target();
    await problemOf(await getPoster(slug!, token!), 404);
  });
});

describe("the share's texts, filled per viewer", () => {
  it("buildPageManifest – the share's own data, a recipient's over it, an embed session's over it: the title and call to action filled", async () => {
    const db = await getDb();
    const own = await buildPageManifest(db, { share: share.slug, address: "192.0.2.1" });
    expect(own.title).toBe("Hi Ana");
    expect(own.cta?.label).toBe("Book, Ana");
    const personal = await buildPageManifest(db, { share: share.slug, address: "192.0.2.1", recipient: bruno.token });
    expect(personal.title).toBe("Hi Bruno");
    expect(personal.cta?.label).toBe("Book, Bruno");

    const basic = `Basic ${Buffer.from(`${credential.apiKey}:${credential.apiSecret}`).toString("base64")}`;
    const session = await okJson<{ token: string }>(
      await createEmbedSessionRoute(apiRequest("POST", "/api/embed-sessions", { headers: { authorization: basic }, body: { channel: "DEV", personalizationData: { firstName: "" } } })),
      201,
    );
    // An empty value takes the placeholder's default.
    const embedded = await buildPageManifest(db, { session: session.token });
    expect(embedded.title).toBe("Hi there");
    expect(embedded.cta?.label).toBe("Book,");
  });
});
