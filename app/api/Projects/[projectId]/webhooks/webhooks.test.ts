import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "@/lib/db";
import type { Role } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { GET as getEndpointRoute, PATCH as patchRoute, DELETE as deleteRoute } from "./[endpointId]/route";
import { POST as testRoute } from "./[endpointId]/test/route";
import { POST as resendRoute } from "./deliveries/[deliveryId]/resend/route";
import { GET as deliveriesRoute } from "./deliveries/route";
import { GET as listRoute, POST as createRoute } from "./route";
import { POST as rotateRoute } from "./signing-secret/rotate/route";
import { GET as secretRoute } from "./signing-secret/route";

// The webhook API through its route handlers, with WEBHOOK_ALLOW_PRIVATE unset: URLs must reach
// public addresses, so literal public IPs stand in for receivers (nothing is sent: no worker runs here).

type Project = Awaited<ReturnType<typeof createTestProject>>;
type Endpoint = { id: string; url: string; eventTypes: string[]; enabled: boolean; description: string | null };
type Delivery = { id: string; messageId: string; status: string; eventType: string; attempts: number; attemptLog: unknown[] };

let home: Project;
let elsewhere: Project;
let manager: string;
let elsewhereAdmin: string;

const base = (projectId: string) => `/api/Projects/${projectId}/webhooks`;
const publicUrl = "https://93.184.216.34/hooks/reelbind";

beforeAll(async () => {
  home = await createTestProject("Webhooks");
  elsewhere = await createTestProject("Other");
  manager = (await createTestMember("ProjectManager", { projectId: home.project.id })).token;
  elsewhereAdmin = (await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id })).token;
});

const create = (token: string, body: unknown, projectId = home.project.id) =>
  createRoute(apiRequest("POST", base(projectId), { token, body }), routeParams({ projectId }));
const list = (token: string, projectId = home.project.id) => listRoute(apiRequest("GET", base(projectId), { token }), routeParams({ projectId }));
const patch = (token: string, endpointId: string, body: unknown, projectId = home.project.id) =>
  patchRoute(apiRequest("PATCH", `${base(projectId)}/${endpointId}`, { token, body }), routeParams({ projectId, endpointId }));
const getOne = (token: string, endpointId: string, projectId = home.project.id) =>
  getEndpointRoute(apiRequest("GET", `${base(projectId)}/${endpointId}`, { token }), routeParams({ projectId, endpointId }));
const remove = (token: string, endpointId: string, projectId = home.project.id) =>
  deleteRoute(apiRequest("DELETE", `${base(projectId)}/${endpointId}`, { token }), routeParams({ projectId, endpointId }));
const sendTest = (token: string, endpointId: string, projectId = home.project.id) =>
  testRoute(apiRequest("POST", `${base(projectId)}/${endpointId}/test`, { token }), routeParams({ projectId, endpointId }));
const deliveries = (token: string, query = "", projectId = home.project.id) =>
  deliveriesRoute(apiRequest("GET", `${base(projectId)}/deliveries${query}`, { token }), routeParams({ projectId }));
const resend = (token: string, deliveryId: string, projectId = home.project.id) =>
  resendRoute(apiRequest("POST", `${base(projectId)}/deliveries/${deliveryId}/resend`, { token }), routeParams({ projectId, deliveryId }));
const secret = (token: string, projectId = home.project.id) => secretRoute(apiRequest("GET", `${base(projectId)}/signing-secret`, { token }), routeParams({ projectId }));
const rotate = (token: string, projectId = home.project.id) =>
  rotateRoute(apiRequest("POST", `${base(projectId)}/signing-secret/rotate`, { token }), routeParams({ projectId }));

async function newEndpoint(body: Record<string, unknown> = {}): Promise<Endpoint> {
  const response = await create(manager, { url: publicUrl, ...body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Endpoint;
}

describe("webhook endpoints – role gates", () => {
  it.each<{ role: Role; allowed: boolean }>([
    { role: "Viewer", allowed: false },
    { role: "Editor", allowed: false },
    { role: "ProjectManager", allowed: true },
  ])("$role on the project – list, create, patch, test, deliveries, secret, rotate", async ({ role, allowed }) => {
    const { token } = await createTestMember(role, { projectId: home.project.id });
    const target = await newEndpoint();
    const responses = [
      await list(token),
      await create(token, { url: publicUrl }),
      await patch(token, target.id, { description: role }),
      await sendTest(token, target.id),
      await deliveries(token),
      await secret(token),
      await rotate(token),
    ];
    expect(responses.map((r) => r.status)).toEqual(allowed ? [200, 201, 200, 202, 200, 200, 200] : [403, 403, 403, 403, 403, 403, 403]);
  });

  it("another tenant's admin → 404 for the project, its endpoint and its delivery", async () => {
    const target = await newEndpoint();
    const delivery = (await (await sendTest(manager, target.id)).json()) as Delivery;
    const statuses = [
      (await list(elsewhereAdmin)).status,
      (await getOne(elsewhereAdmin, target.id)).status,
      (await secret(elsewhereAdmin)).status,
      // Their own project, our ids: not found there either.
      (await getOne(elsewhereAdmin, target.id, elsewhere.project.id)).status,
      (await resend(elsewhereAdmin, delivery.id, elsewhere.project.id)).status,
    ];
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
  });
});

describe("POST /api/Projects/:id/webhooks", () => {
  it("POST – url, description, eventTypes → 201, listed; omitted eventTypes = all (empty)", async () => {
    const created = await newEndpoint({ description: "CRM", eventTypes: ["render.completed", "render.failed"] });
    expect(created).toMatchObject({ url: publicUrl, description: "CRM", eventTypes: ["render.completed", "render.failed"], enabled: true });
    expect((await newEndpoint()).eventTypes).toEqual([]);
    const { items } = (await (await list(manager)).json()) as { items: Endpoint[] };
    expect(items.map((item) => item.id)).toContain(created.id);
  });

  it.each([
    { name: "a loopback address", body: { url: "http://127.0.0.1:8080/hook" }, path: "url", message: "127.0.0.1 is a loopback address: webhooks must reach a public address" },
    { name: "an IPv4-mapped IPv6 private address", body: { url: "http://[::ffff:10.0.0.7]/hook" }, path: "url", message: "::ffff:a00:7 is a private address: webhooks must reach a public address" },
    { name: "the cloud metadata address", body: { url: "http://169.254.169.254/latest" }, path: "url", message: "169.254.169.254 is a link-local address: webhooks must reach a public address" },
    {
      name: "the cloud metadata address as IPv4-compatible IPv6",
      body: { url: "http://[::169.254.169.254]/latest" },
      path: "url",
      message: "::a9fe:a9fe is an IPv4-compatible IPv6 address (::/96, deprecated): webhooks must reach a public address",
    },
    { name: "localhost", body: { url: "http://localhost:3000/hook" }, path: "url", message: "localhost resolves to 127.0.0.1, a loopback address: webhooks must reach a public address" },
    { name: "ftp", body: { url: "ftp://93.184.216.34/hook" }, path: "url", message: "must be an absolute http:// or https:// URL" },
    { name: "an unknown event type", body: { url: publicUrl, eventTypes: ["render.started"] }, path: "eventTypes.0", message: "" },
    { name: "an event type twice", body: { url: publicUrl, eventTypes: ["render.failed", "render.failed"] }, path: "eventTypes", message: "must not name an event type twice" },
    { name: "an unknown field", body: { url: publicUrl, secret: "x" }, path: "secret", message: "unknown field: secret" },
    { name: "no url", body: {}, path: "url", message: "" },
  ])("POST – $name → 422 on $path", async ({ body, path, message }) => {
    const response = await create(manager, body);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as { errors: { path: string; message: string }[] };
    const error = problem.errors.find((entry) => entry.path === path);
    expect(error, JSON.stringify(problem)).toBeDefined();
    if (message) expect(error!.message).toBe(message);
  });

  it("POST – a public address → 201 with no warnings", async () => {
    expect(await newEndpoint()).toMatchObject({ url: publicUrl, warnings: [] });
  });

  // `.invalid` never resolves (RFC 6761 §6.4): the resolver answers NXDOMAIN without the internet.
  it("POST – a host that does not resolve (NXDOMAIN) → 201, saved and listed, with a warning on url naming the host", async () => {
    const url = "https://offline-receiver.invalid/hooks/reelbind";
    const response = await create(manager, { url });
    expect(response.status, await response.clone().text()).toBe(201);
    const saved = (await response.json()) as Endpoint & { warnings: string[] };
    expect(saved).toMatchObject({ url, enabled: true });
    expect(saved.warnings).toEqual([
      "url: offline-receiver.invalid could not be resolved now (no such host, ENOTFOUND); the URL is saved, and each delivery resolves it again and is refused if it points at a private address",
    ]);
    const { items } = (await (await list(manager)).json()) as { items: Endpoint[] };
    expect(items.find((item) => item.id === saved.id)).toMatchObject({ url });
    expect(items.find((item) => item.id === saved.id)).not.toHaveProperty("warnings");
  });

  it("POST – malformed JSON → 400", async () => {
    const response = await createRoute(apiRequest("POST", base(home.project.id), { token: manager, rawBody: "{", headers: { "content-type": "application/json" } }), routeParams({ projectId: home.project.id }));
    expect(response.status).toBe(400);
  });
});

describe("PATCH and DELETE /api/Projects/:id/webhooks/:endpointId", () => {
  it("PATCH – new URL and disabled → pending deliveries follow the URL, then fail as disabled", async () => {
    const endpoint = await newEndpoint();
    const queued = (await (await sendTest(manager, endpoint.id)).json()) as Delivery;
    const moved = await patch(manager, endpoint.id, { url: "https://93.184.216.35/hooks" });
    expect(await moved.json()).toMatchObject({ url: "https://93.184.216.35/hooks" });
    const db = await getDb();
    const [row] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, queued.id));
    expect(row!.url).toBe("https://93.184.216.35/hooks");
    expect((await (await patch(manager, endpoint.id, { enabled: false })).json()) as Endpoint).toMatchObject({ enabled: false });
    const [after] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, queued.id));
    expect(after).toMatchObject({ status: "failed", lastError: "The endpoint was disabled." });
  });

  it.each([
    { name: "an empty body", body: {}, status: 422 },
    { name: "a private URL", body: { url: "http://10.0.0.1/" }, status: 422 },
    { name: "a name resolving to loopback", body: { url: "http://localhost/hook" }, status: 422 },
    { name: "slug-like unknown field", body: { projectId: "x" }, status: 422 },
  ])("PATCH – $name → $status", async ({ body, status }) => {
    const endpoint = await newEndpoint();
    expect((await patch(manager, endpoint.id, body)).status).toBe(status);
  });

  it("PATCH – a new URL whose host does not resolve → 200 with its warning; a change without a URL → no warnings", async () => {
    const endpoint = await newEndpoint();
    const moved = (await (await patch(manager, endpoint.id, { url: "https://moved.invalid/hook" })).json()) as Endpoint & { warnings: string[] };
    expect(moved).toMatchObject({ url: "https://moved.invalid/hook", warnings: [expect.stringMatching(/^url: moved\.invalid could not be resolved now \(/)] });
    expect(await (await patch(manager, endpoint.id, { description: "CRM" })).json()).toMatchObject({ description: "CRM", warnings: [] });
  });

  it.each(["not-a-uuid", "00000000-0000-4000-8000-000000000000"])("GET/PATCH/DELETE/test – endpoint %s → 404", async (endpointId) => {
    const statuses = [(await getOne(manager, endpointId)).status, (await patch(manager, endpointId, { enabled: true })).status, (await remove(manager, endpointId)).status, (await sendTest(manager, endpointId)).status];
    expect(statuses).toEqual([404, 404, 404, 404]);
  });

  it("DELETE – 204, then 404", async () => {
    const endpoint = await newEndpoint();
    expect((await remove(manager, endpoint.id)).status).toBe(204);
    expect((await getOne(manager, endpoint.id)).status).toBe(404);
  });
});

describe("webhook endpoints – audit of an update", () => {
  it("PATCH …/webhooks/:endpointId – the audit event records each changed field old → new, the URL by its host only", async () => {
    const endpoint = await newEndpoint({ description: "Orders", eventTypes: ["render.completed"] });
    const response = await patch(manager, endpoint.id, { url: "https://93.184.216.35/hooks/secret-path-123", description: "Orders v2", enabled: false });
    expect(response.status, await response.clone().text()).toBe(200);
    const db = await getDb();
    const [event] = await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, endpoint.id)).orderBy(schema.auditEvents.seq).offset(1);
    expect(event).toMatchObject({ action: "webhook.endpoint_updated", data: { host: "93.184.216.35" } });
    expect(event!.data!.changes).toEqual([
      { field: "url", from: "93.184.216.34", to: "93.184.216.35" },
      { field: "description", from: "Orders", to: "Orders v2" },
      { field: "enabled", from: true, to: false },
    ]);
    expect(JSON.stringify(event!.data)).not.toContain("secret-path-123");

    // A new path on the same host is recorded as a URL change without either URL.
    await patch(manager, endpoint.id, { url: "https://93.184.216.35/hooks/other-secret" });
    const [latest] = await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, endpoint.id)).orderBy(schema.auditEvents.seq).offset(2);
    expect(latest!.data!.changes).toEqual([{ field: "url" }]);
    expect(JSON.stringify(latest!.data)).not.toContain("other-secret");
  });
});

describe("deliveries", () => {
  it("test event → 202 pending webhook.test delivery, listed newest first; resend while pending → 409; once failed → 202 with the same webhook-id", async () => {
    const endpoint = await newEndpoint();
    const response = await sendTest(manager, endpoint.id);
    expect(response.status).toBe(202);
    const queued = (await response.json()) as Delivery;
    expect(queued).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0 });
    expect(queued.messageId).toMatch(/^msg_/);

    const page = (await (await deliveries(manager, `?endpointId=${endpoint.id}`)).json()) as { items: Delivery[] };
    expect(page.items.map((item) => item.id)).toEqual([queued.id]);

    const pending = await resend(manager, queued.id);
    expect(pending.status).toBe(409);
    expect(((await pending.json()) as { code: string }).code).toBe("delivery_pending");

    const db = await getDb();
    await db.update(schema.webhookDeliveries).set({ status: "failed", attempts: 11 }).where(eq(schema.webhookDeliveries.id, queued.id));
    const again = (await (await resend(manager, queued.id)).json()) as Delivery;
    expect(again).toMatchObject({ id: queued.id, messageId: queued.messageId, status: "pending", attempts: 0 });
    expect(again.attemptLog).toEqual([{ at: expect.any(String), resent: true }]);
  });

  it("GET deliveries – limit 2 over 3 → two pages by cursor, nothing twice or lost", async () => {
    const other = await createTestProject("Paging");
    const { token } = await createTestMember("ProjectManager", { projectId: other.project.id });
    const endpoint = (await (await create(token, { url: publicUrl }, other.project.id)).json()) as Endpoint;
    const ids = [];
    for (let index = 0; index < 3; index++) ids.push(((await (await sendTest(token, endpoint.id, other.project.id)).json()) as Delivery).id);
    const first = (await (await deliveries(token, "?limit=2", other.project.id)).json()) as { items: Delivery[]; nextCursor: string };
    const second = (await (await deliveries(token, `?limit=2&cursor=${first.nextCursor}`, other.project.id)).json()) as { items: Delivery[]; nextCursor: string | null };
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(ids.reverse());
    expect(second.nextCursor).toBeNull();
  });

  it.each(["?cursor=bm9wZQ", "?status=sent", "?limit=0", "?endpointId=nope", "?foo=1"])("GET deliveries%s → 422", async (query) => {
    expect((await deliveries(manager, query)).status).toBe(422);
  });

  it.each(["not-a-uuid", "00000000-0000-4000-8000-000000000000"])("resend – delivery %s → 404", async (deliveryId) => {
    expect((await resend(manager, deliveryId)).status).toBe(404);
  });
});

describe("signing secret", () => {
  it("GET – made on first need, the same on the next read; signatures made with it verify with the reference library", async () => {
    const project = await createTestProject("Secret");
    const { token } = await createTestMember("ProjectManager", { projectId: project.project.id });
    const first = (await (await secret(token, project.project.id)).json()) as { secret: string; rotatedAt: null };
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.rotatedAt).toBeNull();
    expect(((await (await secret(token, project.project.id)).json()) as { secret: string }).secret).toBe(first.secret);
    const body = '{"type":"render.completed"}';
    expect(new Webhook(first.secret).verify(body, signatureHeaders([first.secret], "msg_x", new Date(), body))).toEqual({ type: "render.completed" });
    const db = await getDb();
    const [row] = await db.select().from(schema.webhookSigningKeys).where(eq(schema.webhookSigningKeys.projectId, project.project.id));
    expect(row!.secretCiphertext).not.toContain(first.secret.slice(6));
  });

  it("POST rotate – a new secret; the previous one honoured for 24 h; audited", async () => {
    const before = (await (await secret(manager)).json()) as { secret: string };
    const rotated = (await (await rotate(manager)).json()) as { secret: string; rotatedAt: string; previousSecretExpiresAt: string };
    expect(rotated.secret).not.toBe(before.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.parse(rotated.rotatedAt)).toBe(24 * 3600 * 1000);
    expect(((await (await secret(manager)).json()) as { secret: string }).secret).toBe(rotated.secret);
    const db = await getDb();
    const events = await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "webhook.signing_secret_rotated"));
    expect(events.some((event) => event.projectId === home.project.id)).toBe(true);
  });
});
