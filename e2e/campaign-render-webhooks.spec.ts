import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { env } from "./owned-project";
import { expectDeliveriesMatchDocument } from "./webhook-contract";

// Issue 17's events end to end on the built app: a render with a webhookUrl pointing at a
// loopback receiver, and a campaign import, each reach the receiver signed per Standard
// Webhooks with the project's secret; the render's event carries a download URL whose MP4
// ffprobe reads as H.264. (The e2e app allows private webhook URLs: e2e/global-setup.ts.)

test.describe.configure({ mode: "serial", timeout: 240_000 });

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
type Event = { type: string; timestamp: string; data: Record<string, unknown> };

const projectId = () => env("E2E_PROJECT_ID");
const auth = () => ({ authorization: `Bearer ${env("E2E_API_TOKEN")}` });
const received: Received[] = [];
let receiver: Server;
let receiverUrl: string;
let endpointId: string;
let secret: string;
const scratch = mkdtempSync(path.join(tmpdir(), "reelbind-e2e-events-"));

test.beforeAll(async ({ request }) => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const created = await request.post(`/api/Projects/${projectId()}/webhooks`, {
    headers: auth(),
    data: { url: `${receiverUrl}/endpoint`, description: "issue 17 e2e", eventTypes: ["render.completed", "campaign.imported"] },
  });
  expect(created.status(), await created.text()).toBe(201);
  endpointId = ((await created.json()) as { id: string }).id;
  const revealed = await request.get(`/api/Projects/${projectId()}/webhooks/signing-secret`, { headers: auth() });
  expect(revealed.status()).toBe(200);
  secret = ((await revealed.json()) as { secret: string }).secret;
});

test.afterAll(async ({ request }) => {
  // Later specs' events in the demo project must not queue deliveries to a closed receiver.
  await request.delete(`/api/Projects/${projectId()}/webhooks/${endpointId}`, { headers: auth() });
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
  await expectDeliveriesMatchDocument(request, received);
});

/** The verified events the receiver got at `where` that `match`, polled until there is one. */
async function verifiedEvent(where: string, match: (event: Event) => boolean): Promise<{ event: Event; id: string }> {
  let found: { event: Event; id: string } | undefined;
  await expect
    .poll(
      () => {
        for (const message of received.filter((m) => m.path === where)) {
          // Throws on a wrong signature: the poll fails with the library's message.
          const event = new Webhook(secret).verify(message.body, message.headers as Record<string, string>) as Event;
          if (match(event)) found = { event, id: String(message.headers["webhook-id"]) };
        }
        return Boolean(found);
      },
      { timeout: 180_000, intervals: [250] },
    )
    .toBe(true);
  return found!;
}

async function productionTemplate(request: APIRequestContext): Promise<string> {
  const response = await request.get(`/api/Projects/${projectId()}/templates?status=Production`, { headers: auth() });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items[0]!.id;
}

test("a render with a webhookUrl on loopback: render.completed arrives signed (there and at the endpoint), its MP4 is H.264", async ({ request }) => {
  const templateId = await productionTemplate(request);
  const tag = randomUUID();
  const created = await request.post(`/api/Projects/${projectId()}/templates/${templateId}/renders`, {
    headers: auth(),
    data: { data: { firstName: "Ana" }, format: "mp4", webhookUrl: `${receiverUrl}/render-hook`, metadata: { tag } },
  });
  expect(created.status(), await created.text()).toBe(202);
  const { id } = (await created.json()) as { id: string };

  const own = await verifiedEvent("/render-hook", (event) => event.data.renderId === id);
  expect(own.event).toMatchObject({ type: "render.completed", data: { renderId: id, templateId, status: "done", format: "mp4", metadata: { tag } } });
  const atEndpoint = await verifiedEvent("/endpoint", (event) => event.data.renderId === id);
  expect(atEndpoint.event.type).toBe("render.completed");

  const file = await request.get(String(own.event.data.downloadUrl));
  expect(file.status()).toBe(200);
  const saved = path.join(scratch, `${id}.mp4`);
  writeFileSync(saved, await file.body());
  const probe = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", saved]).toString()) as {
    streams: { codec_type: string; codec_name: string; pix_fmt?: string; width?: number; height?: number }[];
    format: { format_name: string; duration: string };
  };
  expect(probe.format.format_name).toContain("mp4");
  expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", width: 1280, height: 720 });
  expect(Number(probe.format.duration)).toBeGreaterThan(1);
});

test("a campaign import: campaign.imported arrives signed with the import's counts", async ({ request }) => {
  const campaign = await request.post(`/api/Projects/${projectId()}/campaigns`, { headers: auth(), data: { name: `Events ${randomUUID().slice(0, 6)}`, channel: "PROD" } });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const campaignId = ((await campaign.json()) as { id: string }).id;
  const imported = await request.post(`/api/Projects/${projectId()}/campaigns/${campaignId}/recipients`, {
    headers: { ...auth(), "content-type": "text/csv" },
    data: "id,firstName,email\nr-1,Ana,ana@example.com\nr-2,Bo,bo@example.com\n",
  });
  expect(imported.status(), await imported.text()).toBe(201);

  const { event } = await verifiedEvent("/endpoint", (e) => e.type === "campaign.imported" && e.data.campaignId === campaignId);
  expect(event.data).toMatchObject({ campaignId, rowsImported: 2, rowsRefused: 0 });
});
