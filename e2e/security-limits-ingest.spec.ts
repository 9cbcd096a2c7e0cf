import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import type { StartedApp } from "../testing/start-app";
import { startOwnInstance, type OwnInstance } from "./own-instance";
import { cliVia } from "./owned-project";
import { ctaClick, type Manifest } from "./wire-events";

// Anyone may mint a fresh ingest token for a public share from the manifest endpoint, so the
// per-token limit alone would reset at will: the project and the client address have limits of
// their own. A second app instance with tiny limits (one event every 1,000 s, a burst of one
// full batch of 500), on a fresh DATA_DIR (and its own database when the suite runs on
// PostgreSQL), so nothing refills while the test runs. It trusts loopback (TRUSTED_PROXIES), so
// the test's X-Forwarded-For addresses are the clients' (e2e/security-client-address.spec.ts
// shows that one that does not ignores them).

const fullBatch = 500;
let instance: OwnInstance | undefined;
let app: StartedApp | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  instance = await startOwnInstance("limits", { INGEST_PROJECT_RATE: "0.001", INGEST_ADDRESS_RATE: "0.001", TRUSTED_PROXIES: "loopback" });
  app = instance.app;
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await instance?.stop();
});

async function pageManifest(slug: string): Promise<Manifest> {
  const response = await fetch(`${app!.baseUrl}/api/embed/manifest?share=${slug}`, { signal: AbortSignal.timeout(30_000) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Manifest;
}

async function sendBatch(manifest: Manifest, address: string, n: number) {
  const response = await fetch(`${manifest.ingest.url}/analytics/v1/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${manifest.ingest.token}`, "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify({ sent_at: new Date().toISOString(), events: Array.from({ length: n }, () => ctaClick(manifest)) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as { accepted?: number; detail?: string } };
}

/** A second project of the instance's demo organization with a share of its own; its slug. */
async function secondShare(): Promise<string> {
  const organizationId = /Organization:.*\(([0-9a-f-]{36})\)/.exec(app!.output())![1]!;
  const project = await cliVia<{ id: string }>(instance!.dataDir, "project", "create", "--org", organizationId, "--name", "Limits second project");
  const auth = { Authorization: `Bearer ${app!.token}` };
  const form = new FormData();
  form.set("kind", "LottieStandalone");
  form.set("name", "Lights");
  form.set("templateJson", new Blob([readFileSync("testing/fixtures/lottie/lights.json")], { type: "application/json" }), "lights.json");
  const uploaded = await fetch(`${app!.baseUrl}/api/Projects/${project.id}/templates/upload`, { method: "POST", headers: auth, body: form });
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  const credential = await fetch(`${app!.baseUrl}/api/credentials`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ projectId: project.id }),
  });
  expect(credential.status).toBe(201);
  const { id } = (await credential.json()) as { id: string };
  const share = await fetch(`${app!.baseUrl}/api/Projects/${project.id}/public-video-shares/DEV`, {
    method: "PUT",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ publicTitle: "Limits", apiCredentialId: id }),
  });
  expect(share.status, await share.clone().text()).toBe(201);
  return ((await share.json()) as { slug: string }).slug;
}

test("POST /analytics/v1/events – fresh tokens from the manifest endpoint → the per-project, then the per-address limit still answers 429 with Retry-After", async () => {
  test.setTimeout(180_000);
  const demoSlug = new URL(app!.shareUrl).pathname.split("/").pop()!;
  const manifests = await Promise.all(Array.from({ length: 3 }, () => pageManifest(demoSlug)));
  expect(new Set(manifests.map((manifest) => manifest.ingest.token)).size).toBe(3);

  // Per project: the burst from one client, then each fresh token from a fresh address is refused.
  expect(await sendBatch(manifests[0]!, "203.0.113.1", fullBatch)).toMatchObject({ status: 202, body: { accepted: fullBatch } });
  for (const [i, manifest] of manifests.slice(1).entries()) {
    const refused = await sendBatch(manifest, `203.0.113.${2 + i}`, 1);
    expect(refused).toMatchObject({ status: 429, body: { detail: "Too many events for this project; retry later." } });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  }

  // Per address: 203.0.113.1 spent its burst above; fresh tokens of another project are refused
  // from it, while another client is served with the same project.
  const otherSlug = await secondShare();
  const others = await Promise.all(Array.from({ length: 3 }, () => pageManifest(otherSlug)));
  for (const manifest of others.slice(0, 2)) {
    const refused = await sendBatch(manifest, "203.0.113.1", 1);
    expect(refused).toMatchObject({ status: 429, body: { detail: "Too many events from this address; retry later." } });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  expect(await sendBatch(others[2]!, "203.0.113.9", 1)).toMatchObject({ status: 202, body: { accepted: 1 } });
});
