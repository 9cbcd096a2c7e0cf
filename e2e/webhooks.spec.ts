import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { cli } from "./sign-in-helpers";
import { expectDeliveriesMatchDocument } from "./webhook-contract";

// Webhooks against the built app (started with WEBHOOK_ALLOW_PRIVATE=1 by global-setup): a
// receiver in this test process on loopback gets signed deliveries from the app's delivery
// worker; the delivery log and re-send work in the console. campaign.imported and
// render.completed are checked end to end where campaigns and renders are.

type Created = { id: string };
type Received = { headers: IncomingHttpHeaders; body: string };
type Delivery = { id: string; messageId: string; status: string; attempts: number; lastStatusCode: number | null; attemptLog: unknown[] };

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
const manager = { email: `webhook-pm-${run}@example.com`, password: `pw-${randomUUID()}` };
const viewer = { email: `webhook-viewer-${run}@example.com`, password: `pw-${randomUUID()}` };
let projectId: string;
let token: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers, in order; 204 once they run out. */
const answers: number[] = [];

const auth = () => ({ Authorization: `Bearer ${token}` });
const api = (path: string) => `/api/Projects/${projectId}/webhooks${path}`;

test.beforeAll(async () => {
  const [org, pm, view] = await Promise.all([
    cli<Created>("org", "create", "--name", `Webhooks ${run}`),
    cli<Created>("user", "create", "--email", manager.email, "--password", manager.password),
    cli<Created>("user", "create", "--email", viewer.email, "--password", viewer.password),
  ]);
  projectId = (await cli<Created>("project", "create", "--org", org.id, "--name", "Render alerts")).id;
  await Promise.all([
    cli("member", "add", "--user", pm.id, "--project", projectId, "--role", "ProjectManager"),
    cli("member", "add", "--user", view.id, "--project", projectId, "--role", "Viewer"),
  ]);
  token = (await cli<{ token: string }>("token", "create", "--user", pm.id)).token;

  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/reelbind`;
});

test.afterAll(async ({ request }) => {
  await new Promise((resolve) => receiver.close(resolve));
  await expectDeliveriesMatchDocument(request, received);
});

async function deliveriesOf(request: APIRequestContext): Promise<Delivery[]> {
  const response = await request.get(api("/deliveries"), { headers: auth() });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: Delivery[] }).items;
}

function verifies(secret: string, message: Received): unknown {
  return new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
}

test("API: a test event to a loopback receiver – 500 first, retried by the worker, then a body whose signature verifies with the revealed secret", async ({ request }) => {
  const created = await request.post(api(""), { headers: auth(), data: { url: receiverUrl, description: "Receiver in the test", eventTypes: ["render.completed"] } });
  expect(created.status(), await created.text()).toBe(201);
  const endpoint = (await created.json()) as Created;

  const secretResponse = await request.get(api("/signing-secret"), { headers: auth() });
  expect(secretResponse.status()).toBe(200);
  const { secret } = (await secretResponse.json()) as { secret: string };

  answers.push(500);
  const queued = await request.post(api(`/${endpoint.id}/test`), { headers: auth() });
  expect(queued.status()).toBe(202);
  const delivery = (await queued.json()) as Delivery;

  // The first attempt fails; the worker tries again about 5 s later.
  await expect.poll(() => received.length).toBe(2);
  expect(received.map((message) => message.headers["webhook-id"])).toEqual([delivery.messageId, delivery.messageId]);
  const payload = verifies(secret, received[1]!) as { type: string; data: { endpointId: string } };
  expect(payload).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });
  expect(() => verifies(secret, { ...received[1]!, body: received[1]!.body.replace("webhook.test", "render.failed") })).toThrow(/No matching signature/);

  await expect
    .poll(async () => (await deliveriesOf(request)).find((item) => item.id === delivery.id))
    .toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 204 });
});

test("API: endpoint URLs – not http(s) → 422 naming url; unknown endpoint → 404", async ({ request }) => {
  const refused = await request.post(api(""), { headers: auth(), data: { url: "ftp://127.0.0.1/hook" } });
  expect(refused.status()).toBe(422);
  expect(await refused.json()).toMatchObject({ errors: [{ path: "url", message: "must be an absolute http:// or https:// URL" }] });
  expect((await request.get(api(`/${randomUUID()}`), { headers: auth() })).status()).toBe(404);
});

test("console: the delivery in the log, re-sent from there (same webhook-id again); an endpoint added with its events; the secret revealed and rotated", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const before = received.length;
  const [firstDelivery] = await deliveriesOf(request);
  const { secret } = (await (await request.get(api("/signing-secret"), { headers: auth() })).json()) as { secret: string };

  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/webhooks`);
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Webhook endpoints" })).toContainText(receiverUrl);

  const delivery = page.getByTestId("webhook-delivery").filter({ hasText: firstDelivery!.messageId });
  await expect(delivery).toContainText("Delivered");
  await expect(delivery).toContainText("2 attempts");
  await delivery.getByText("Attempts and payload").click();
  await expect(delivery.getByRole("list", { name: "Attempt log" })).toContainText("HTTP 500");
  await expect(delivery.getByRole("list", { name: "Attempt log" })).toContainText("HTTP 204");
  await expect(delivery).toContainText('"type": "webhook.test"');
  await expectAccessible(page);
  await screenshots(page, "webhooks");

  await delivery.getByRole("button", { name: /^Re-send/ }).click();
  await expect(page.getByText("Delivery queued again.")).toBeVisible();
  await expect.poll(() => received.length).toBe(before + 1);
  const resent = received.at(-1)!;
  expect(resent.headers["webhook-id"]).toBe(firstDelivery!.messageId);
  expect(verifies(secret, resent)).toMatchObject({ type: "webhook.test" });
  // The log refreshes itself while the delivery is pending, and shows the re-send.
  await expect(delivery.getByRole("list", { name: "Attempt log" })).toContainText("Re-sent");
  await expect(delivery).toContainText("Delivered");
  await expect(delivery).toContainText("1 attempt ");

  // Add an endpoint: a refused URL first (the API's message at the field), then a good one.
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  await dialog.getByLabel("URL").fill("ftp://127.0.0.1/x");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByText("must be an absolute http:// or https:// URL")).toBeVisible();
  await dialog.getByLabel("URL").fill(`${receiverUrl}/failures`);
  await dialog.getByLabel("Description").fill("Failures only");
  await dialog.getByRole("checkbox", { name: /Render failed/ }).check();
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("Endpoint added.")).toBeVisible();
  const added = page.getByRole("list", { name: "Webhook endpoints" }).getByRole("listitem").filter({ hasText: "Failures only" });
  await expect(added).toContainText("Render failed");
  await expect(added).toContainText("Enabled");
  await added.getByRole("button", { name: /^Disable/ }).click();
  await expect(added).toContainText("Disabled");

  // The secret: hidden until revealed, the same as the API's; rotated after a confirmation.
  await expect(page.getByTestId("signing-secret")).not.toContainText(secret);
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByTestId("signing-secret")).toHaveText(secret);
  await page.getByRole("button", { name: "Copy secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("dialog", { name: "Rotate the signing secret?" }).getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByText("Signing secret rotated")).toBeVisible();
  await expect(page.getByTestId("signing-secret")).not.toHaveText(secret);
  await expect(page.getByTestId("signing-secret")).toHaveText(/^whsec_/);
  await expect(page.getByText(/deliveries also carry a signature made with the previous secret/)).toBeVisible();
  await screenshots(page, "webhooks-after");
});

test("console: a Viewer sees why the Webhooks tab is not theirs, and the API answers 403", async ({ page, request }) => {
  await signIn(page, viewer);
  await page.goto(`/projects/${projectId}/webhooks`);
  await expect(page.getByText("Webhooks need the ProjectManager role; you are Viewer.")).toBeVisible();
  const viewerToken = (await cli<{ token: string }>("token", "create", "--user", viewer.email)).token;
  expect((await request.get(api(""), { headers: { Authorization: `Bearer ${viewerToken}` } })).status()).toBe(403);
});
