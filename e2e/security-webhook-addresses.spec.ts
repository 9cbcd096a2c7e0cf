import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { screenshots, signIn } from "./console-helpers";
import type { ServerProcess, StartedApp } from "../testing/start-app";
import { startOwnInstance, type OwnInstance } from "./own-instance";

// Where webhooks may go, on an app of the spec's own with WEBHOOK_ALLOW_PRIVATE unset (the
// suite's app allows private receivers). The instance first runs with private receivers
// allowed, long enough to save endpoints on loopback — as an installation that allowed them,
// or saved them before a form was refused — then restarts with the default: what it then
// refuses at save and queue time, and how it treats the deliveries it can no longer make.

type Delivery = { id: string; status: string; attempts: number; nextAttemptAt: string | null; lastError: string | null; attemptLog: unknown[] };
type Problem = { status: number; errors?: { path: string; message: string }[] };

let instance: OwnInstance | undefined;
let app: StartedApp;
let server: ServerProcess;
let receiver: Server;
let receiverPort: number;
let received = 0;
/** Endpoints saved while private receivers were allowed, by the host their URL names. */
const savedBefore: Record<string, string> = {};

const auth = () => ({ Authorization: `Bearer ${app.token}`, "Content-Type": "application/json" });
const webhooksUrl = () => `${server.baseUrl}/api/Projects/${app.projectId}/webhooks`;

async function post(url: string, body?: unknown) {
  const response = await fetch(url, { method: "POST", headers: auth(), body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
  return { status: response.status, contentType: response.headers.get("content-type"), body: (await response.json()) as unknown };
}

async function get<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: auth(), signal: AbortSignal.timeout(60_000) });
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  test.setTimeout(540_000);
  receiver = createServer((req, res) => {
    received += 1;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverPort = (receiver.address() as AddressInfo).port;

  instance = await startOwnInstance("webhook-addresses", { WEBHOOK_ALLOW_PRIVATE: "1" });
  app = instance.app;
  server = app;
  for (const host of ["localhost", "[::127.0.0.1]"]) {
    const created = await post(webhooksUrl(), { url: `http://${host}:${receiverPort}/hook`, description: `Saved while private receivers were allowed (${host})` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    savedBefore[host] = (created.body as { id: string }).id;
  }
  server = await instance.restart({ WEBHOOK_ALLOW_PRIVATE: "0" });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await instance?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

test("POST …/webhooks – IPv4-compatible IPv6 addresses ([::169.254.169.254], [::127.0.0.1], [::10.0.0.1], [::a9fe:a9fe]) → 422 naming url, nothing saved; PATCH to them → 422", async () => {
  const before = await get<{ items: { url: string }[] }>(webhooksUrl());
  for (const host of ["[::169.254.169.254]", "[::127.0.0.1]", "[::10.0.0.1]", "[::a9fe:a9fe]"]) {
    const url = `http://${host}/latest/meta-data`;
    const refused = await post(webhooksUrl(), { url });
    expect(refused.status, `${url}: ${JSON.stringify(refused.body)}`).toBe(422);
    expect(refused.contentType).toBe("application/problem+json");
    expect((refused.body as Problem).errors).toEqual([{ path: "url", message: expect.stringMatching(/^\S+ is an IPv4-compatible IPv6 address \(::\/96, deprecated\): webhooks must reach a public address$/) }]);

    const patched = await fetch(`${webhooksUrl()}/${savedBefore.localhost}`, { method: "PATCH", headers: auth(), body: JSON.stringify({ url }) });
    expect(patched.status, url).toBe(422);
    expect(((await patched.json()) as Problem).errors).toEqual([{ path: "url", message: expect.stringContaining("IPv4-compatible") }]);
  }
  const after = await get<{ items: { url: string }[] }>(webhooksUrl());
  expect(after.items.map((item) => item.url)).toEqual(before.items.map((item) => item.url));
});

test("POST …/templates/{id}/renders – a loopback webhookUrl (127.0.0.1, 2130706433, [::ffff:127.0.0.1]) → 422 naming webhookUrl, no render queued", async () => {
  const templates = await get<{ items: { id: string }[] }>(`${server.baseUrl}/api/Projects/${app.projectId}/templates?status=Production`);
  const rendersUrl = `${server.baseUrl}/api/Projects/${app.projectId}/templates/${templates.items[0]!.id}/renders`;
  const before = await get<{ items: unknown[] }>(rendersUrl);
  for (const host of ["127.0.0.1", "2130706433", "[::ffff:127.0.0.1]"]) {
    const webhookUrl = `http://${host}:${receiverPort}/render-done`;
    const refused = await post(rendersUrl, { data: {}, format: "png", webhookUrl });
    expect(refused.status, `${webhookUrl}: ${JSON.stringify(refused.body)}`).toBe(422);
    expect(refused.contentType).toBe("application/problem+json");
    expect((refused.body as Problem).errors).toEqual([{ path: "webhookUrl", message: expect.stringMatching(/loopback.*: webhooks must reach a public address$/) }]);
  }
  expect((await get<{ items: unknown[] }>(rendersUrl)).items).toHaveLength(before.items.length);
});

for (const host of ["localhost", "[::127.0.0.1]"]) {
  test(`delivery to an endpoint saved on ${host} while private receivers were allowed → attempted once, failed at once with the reason, never retried; nothing reaches the receiver`, async () => {
    const queued = await post(`${webhooksUrl()}/${savedBefore[host]}/test`);
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const { id } = queued.body as Delivery;
    let delivery: Delivery | undefined;
    await expect
      .poll(async () => {
        delivery = (await get<{ items: Delivery[] }>(`${webhooksUrl()}/deliveries`)).items.find((item) => item.id === id);
        return delivery?.attempts;
      })
      .toBeGreaterThanOrEqual(1);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null });
    expect(delivery!.lastError).toMatch(/^Refused: .*(loopback|IPv4-compatible).*: webhooks must reach a public address\.$/);
    expect(delivery!.attemptLog).toHaveLength(1);
    expect(received).toBe(0);
  });
}

test("console: a host that does not resolve (.invalid) is added with the warning shown; localhost is refused on the URL field in one sentence", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  await signIn(page, { email: app.adminEmail, password: app.adminPassword });
  await page.goto(`/projects/${app.projectId}/webhooks`);

  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  await dialog.getByLabel("URL").fill("http://localhost:3000/hook");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByText(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address: webhooks must reach a public address$/)).toBeVisible();

  const url = "https://offline-receiver.invalid/hooks/reelbind";
  await dialog.getByLabel("URL").fill(url);
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog).toBeHidden();
  const warning = page.getByRole("status", { name: "Endpoint saved with a warning" });
  await expect(warning).toContainText("offline-receiver.invalid could not be resolved now (no such host, ENOTFOUND)");
  await expect(page.getByRole("list", { name: "Webhook endpoints" })).toContainText(url);
  await screenshots(page, "webhooks-saved-with-warning");
  await warning.getByRole("button", { name: "Dismiss" }).click();
  await expect(warning).toBeHidden();
  await context.close();
});
