import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIResponse } from "@playwright/test";
import { fixture, lightsUpload, setUpShare } from "./embed-helpers";
import { env } from "./owned-project";

// Deeply nested JSON in any body the server parses: a 4xx problem document, never a 500 (a
// recursive walker once overflowed the stack at 3,000 levels).

const depths = [3_000, 100_000];
const shapes = {
  arrays: (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`,
  objects: (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`,
} as const;

async function expectProblem(response: APIResponse, label: string) {
  const text = await response.text();
  expect(response.status(), `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.status(), `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(response.headers()["content-type"], label).toBe("application/problem+json");
}

test("every JSON body – 3,000 and 100,000 levels of arrays and objects → 4xx problem+json", async ({ request }) => {
  test.setTimeout(180_000);
  const setup = await setUpShare(request, "Nested JSON", lightsUpload);
  const bearer = { Authorization: `Bearer ${setup.token}` };
  const basic = { Authorization: `Basic ${Buffer.from("rbk_none:none").toString("base64")}` };
  const projects = `/api/Projects/${setup.projectId}`;
  const templates = (await (await request.get(`${projects}/templates`, { headers: bearer })).json()) as { items: { id: string }[] };
  const manifest = (await (await request.get(`/api/embed/manifest?share=${setup.share.slug}`)).json()) as { ingest: { token: string } };
  // The server publishes its admin channel on either database: the deep body reaches the parser behind the secret.
  const channel = JSON.parse(readFileSync(path.join(env("E2E_DATA_DIR"), "admin-channel.json"), "utf8")) as { secret: string };
  const origin = { Origin: env("E2E_BASE_URL") };

  // [label, method, path, headers, the body around the deep value]
  const routes: [string, "POST" | "PUT", string, Record<string, string>, (deep: string) => string][] = [
    ["PUT …/public-video-shares/DEV", "PUT", `${projects}/public-video-shares/DEV`, bearer, (deep) => `{"publicTitle":${deep}}`],
    ["POST …/templates/{id}/preview", "POST", `${projects}/templates/${templates.items[0]!.id}/preview`, bearer, (deep) => `{"data":${deep}}`],
    ["POST /api/credentials", "POST", "/api/credentials", bearer, (deep) => `{"projectId":"${setup.projectId}","name":${deep}}`],
    ["POST /api/embed-sessions (a wrong credential)", "POST", "/api/embed-sessions", basic, (deep) => `{"channel":"DEV","data":${deep}}`],
    ["POST /api/internal/cli", "POST", "/api/internal/cli", { "x-reelbind-cli-secret": channel.secret }, (deep) => `{"command":"x","options":${deep}}`],
    ["POST /analytics/v1/events", "POST", "/analytics/v1/events", { ...origin, Authorization: `Bearer ${manifest.ingest.token}` }, (deep) => `{"sent_at":"x","events":${deep}}`],
    ["POST /analytics/v1/consent", "POST", "/analytics/v1/consent", origin, (deep) => `{"token":"${manifest.ingest.token}","event":${deep}}`],
  ];
  for (const [label, method, url, headers, wrap] of routes) {
    for (const levels of depths) {
      for (const [shape, deep] of Object.entries(shapes)) {
        const response = await request.fetch(url, {
          method,
          headers: { ...headers, "Content-Type": "application/json" },
          data: wrap(deep(levels)),
          timeout: 30_000,
        });
        await expectProblem(response, `${label} – ${levels} levels of ${shape}`);
      }
    }
  }

  // The upload's JSON parts: the animation, the binding manifest and a Raster overlay.
  const parts: [label: string, form: (deep: string) => Record<string, unknown>][] = [
    ["templateJson", (deep) => ({ ...lightsUpload, templateJson: { name: "deep.json", mimeType: "application/json", buffer: Buffer.from(deep) } })],
    ["manifestJson", (deep) => ({ ...lightsUpload, manifestJson: { name: "manifest.json", mimeType: "application/json", buffer: Buffer.from(deep) } })],
    [
      "overlayJson",
      (deep) => ({
        kind: "Raster",
        name: "Deep overlay",
        videoFile: { name: "background.mp4", mimeType: "video/mp4", buffer: fixture("video/background-640x360-6s.mp4") },
        overlayJson: { name: "overlay.json", mimeType: "application/json", buffer: Buffer.from(deep) },
      }),
    ],
  ];
  for (const [label, form] of parts) {
    for (const levels of depths) {
      for (const [shape, deep] of Object.entries(shapes)) {
        const response = await request.post(`${projects}/templates/upload`, { headers: bearer, multipart: form(deep(levels)) as never, timeout: 30_000 });
        await expectProblem(response, `POST …/templates/upload ${label} – ${levels} levels of ${shape}`);
      }
    }
  }
});
