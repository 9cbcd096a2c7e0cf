import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { lightsUpload, setUpShare } from "./embed-helpers";
import { browserUserAgent, ctaClick, type Manifest } from "./wire-events";

// The analytics ingest of the built server, on whichever database it runs (CI runs this file
// on PGlite and on PostgreSQL): an SDK retry repeats a batch after a lost answer, and that
// retry, or a batch mixing stored and new events, must be a 202 that stores each new event once.

type Ingest = Manifest["ingest"];

async function pageManifest(request: APIRequestContext, slug: string): Promise<Manifest> {
  const response = await request.get(`/api/embed/manifest?share=${slug}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Manifest;
}

async function sendBatch(request: APIRequestContext, ingest: Ingest, events: object[]) {
  const response = await request.post(`${ingest.url}/analytics/v1/events`, {
    headers: { Authorization: `Bearer ${ingest.token}`, "User-Agent": browserUserAgent },
    data: { sent_at: new Date().toISOString(), events },
  });
  return { status: response.status(), body: (await response.json()) as { accepted?: number; duplicates?: number; quarantined?: number; code?: string } };
}

async function ctaClicksStored(request: APIRequestContext, projectId: string, token: string): Promise<number> {
  const response = await request.get(`/api/Projects/${projectId}/analytics`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { summary: { ctaClicks: number } }).summary.ctaClicks;
}

test.describe("POST /analytics/v1/events on the built server", () => {
  test("the same batch twice – 202, then 202 with every event a duplicate; stored once", async ({ request }) => {
    const { share, projectId, token } = await setUpShare(request, "Ingest retry", lightsUpload);
    const manifest = await pageManifest(request, share.slug);
    const batch = Array.from({ length: 5 }, () => ctaClick(manifest));

    expect(await sendBatch(request, manifest.ingest, batch)).toEqual({ status: 202, body: { accepted: 5, duplicates: 0, quarantined: 0 } });
    expect(await sendBatch(request, manifest.ingest, batch)).toEqual({ status: 202, body: { accepted: 0, duplicates: 5, quarantined: 0 } });
    expect(await ctaClicksStored(request, projectId, token)).toBe(5);
  });

  test("a batch mixing stored and new events – the new ones stored, the stored ones counted as duplicates", async ({ request }) => {
    const { share, projectId, token } = await setUpShare(request, "Ingest mixed", lightsUpload);
    const manifest = await pageManifest(request, share.slug);
    const stored = Array.from({ length: 2 }, () => ctaClick(manifest));
    const fresh = Array.from({ length: 3 }, () => ctaClick(manifest));

    expect(await sendBatch(request, manifest.ingest, stored)).toEqual({ status: 202, body: { accepted: 2, duplicates: 0, quarantined: 0 } });
    expect(await sendBatch(request, manifest.ingest, [fresh[0]!, ...stored, ...fresh.slice(1)])).toEqual({
      status: 202,
      body: { accepted: 3, duplicates: 2, quarantined: 0 },
    });
    expect(await ctaClicksStored(request, projectId, token)).toBe(5);
  });

  test("a retried batch committed together with others – every batch answers 202 and stores its own events", async ({ request }) => {
    const { share, projectId, token } = await setUpShare(request, "Ingest group", lightsUpload);
    const manifest = await pageManifest(request, share.slug);
    const retried = Array.from({ length: 4 }, () => ctaClick(manifest));
    expect((await sendBatch(request, manifest.ingest, retried)).status).toBe(202);

    // Sent at once, the batches share group commits on the server; the retry sits among them.
    const fresh = Array.from({ length: 20 }, () => Array.from({ length: 3 }, () => ctaClick(manifest)));
    const batches = [...fresh.slice(0, 10), retried, ...fresh.slice(10)];
    const answers = await Promise.all(batches.map((events) => sendBatch(request, manifest.ingest, events)));

    answers.forEach((answer, i) => {
      const expected = batches[i] === retried ? { accepted: 0, duplicates: 4, quarantined: 0 } : { accepted: 3, duplicates: 0, quarantined: 0 };
      expect(answer, `batch ${i}`).toEqual({ status: 202, body: expected });
    });
    expect(await ctaClicksStored(request, projectId, token)).toBe(4 + 60);
  });
});

test("POST /analytics/v1/consent twice – the beacon is stored once and its retry is a duplicate", async ({ request }) => {
  const { share } = await setUpShare(request, "Consent beacon", lightsUpload);
  const manifest = await pageManifest(request, share.slug);
  const event = { ...ctaClick(manifest), event_type: "consent.accepted", playback_id: null, payload: { source: "banner" } };
  const beacon = () =>
    request.post(`${manifest.ingest.url}/analytics/v1/consent`, {
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
      data: JSON.stringify({ token: manifest.ingest.token, event }),
    });

  const first = await beacon();
  expect(first.status(), await first.text()).toBe(202);
  expect(await first.json()).toEqual({ accepted: 1, duplicates: 0, quarantined: 0 });
  const second = await beacon();
  expect(second.status(), await second.text()).toBe(202);
  expect(await second.json()).toEqual({ accepted: 0, duplicates: 1, quarantined: 0 });
});

test("upload → deploy → PROD share → landing page → event – the whole path on the built server", async ({ request }) => {
  const { projectId, token, credentialId } = await setUpShare(request, "Whole path", lightsUpload);
  const auth = { Authorization: `Bearer ${token}` };
  const templates = `/api/Projects/${projectId}/templates`;

  const uploaded = await request.post(`${templates}/upload`, { headers: auth, multipart: { ...lightsUpload, version: "2.0" } as never });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const template = (await uploaded.json()) as { id: string; status: string };
  expect(template.status).toBe("Testing");
  const deployed = await request.post(`${templates}/${template.id}/deploy`, { headers: auth });
  expect(deployed.status(), await deployed.text()).toBe(200);
  expect(((await deployed.json()) as { status: string }).status).toBe("Production");

  const title = `Hi Ana ${randomUUID()}`;
  const put = await request.put(`/api/Projects/${projectId}/public-video-shares/PROD`, {
    headers: auth,
    data: { publicTitle: title, apiCredentialId: credentialId, ctaLabel: "Book a call", ctaUrl: "https://example.com/book" },
  });
  expect(put.status(), await put.text()).toBe(201);
  const share = (await put.json()) as { slug: string; url: string };

  const landing = await request.get(new URL(share.url).pathname);
  expect(landing.status()).toBe(200);
  expect(await landing.text()).toContain(title);

  const manifest = await pageManifest(request, share.slug);
  expect(manifest.template).toMatchObject({ id: template.id, version: "2.0" });
  expect(await sendBatch(request, manifest.ingest, [ctaClick(manifest)])).toEqual({ status: 202, body: { accepted: 1, duplicates: 0, quarantined: 0 } });
  expect(await ctaClicksStored(request, projectId, token)).toBe(1);
});
