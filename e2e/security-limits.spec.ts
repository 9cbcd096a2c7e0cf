import { expect, test, type APIRequestContext } from "@playwright/test";
import { lightsUpload, setUpShare } from "./embed-helpers";
import { createProjectMember } from "./security-limits-helpers";

// Guard rails on the built server: an embed session ends with the credential that minted it,
// and the audit log shows a Viewer only what a Viewer may read.

type Credential = { id: string; apiKey: string; apiSecret: string };
type AuditPage = { items: { action: string; actor: { id: string; email: string } | null; data: Record<string, unknown> | null }[] };

// Hang guard: each test makes its users and projects (over the admin channel) and many requests.
test.describe.configure({ timeout: 300_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createCredential(request: APIRequestContext, token: string, projectId: string, name: string): Promise<Credential> {
  const response = await request.post("/api/credentials", { headers: bearer(token), data: { projectId, name } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Credential;
}

async function mintSession(request: APIRequestContext, credential: Credential): Promise<string> {
  const basic = `Basic ${Buffer.from(`${credential.apiKey}:${credential.apiSecret}`).toString("base64")}`;
  const response = await request.post("/api/embed-sessions", { headers: { Authorization: basic }, data: { channel: "DEV" } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

const manifestStatus = async (request: APIRequestContext, session: string) =>
  (await request.get(`/api/embed/manifest?session=${encodeURIComponent(session)}`)).status();

test.describe("embed sessions and their credential", () => {
  test("GET /api/embed/manifest?session= – after POST /api/credentials/{id}/revoke of the minting credential → 401; /embed?session= shows the notice", async ({ request }) => {
    const setup = await setUpShare(request, "Revoked session", lightsUpload);
    // A second credential of the project mints the session; the share keeps its own (active) one.
    const minting = await createCredential(request, setup.token, setup.projectId, "Customer site");
    const session = await mintSession(request, minting);
    const other = await setup.session(request, {});
    expect(await manifestStatus(request, session)).toBe(200);

    const revoked = await request.post(`/api/credentials/${minting.id}/revoke`, { headers: bearer(setup.token) });
    expect(revoked.status(), await revoked.text()).toBe(200);

    const manifest = await request.get(`/api/embed/manifest?session=${encodeURIComponent(session)}`);
    expect(manifest.status()).toBe(401);
    expect(manifest.headers()["content-type"]).toBe("application/problem+json");
    expect(await manifest.json()).toMatchObject({ status: 401, code: "unauthorized", detail: "The token is invalid." });

    const page = await request.get(`/embed?session=${encodeURIComponent(session)}`);
    expect(page.status()).toBe(401);
    expect(page.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("This video link has expired or is not valid.");

    // Sessions of the share's own credential are not affected.
    expect(await manifestStatus(request, other)).toBe(200);
    // A revoked credential cannot mint new sessions either.
    const basic = `Basic ${Buffer.from(`${minting.apiKey}:${minting.apiSecret}`).toString("base64")}`;
    expect((await request.post("/api/embed-sessions", { headers: { Authorization: basic }, data: { channel: "DEV" } })).status()).toBe(401);
  });
});

test.describe("GET /api/Projects/:id/audit-events by role", () => {
  test("GET …/audit-events – a Viewer sees no apiKey and no other member's email; a ProjectManager sees both", async ({ request }) => {
    const setup = await setUpShare(request, "Audit roles", lightsUpload);
    const credential = await createCredential(request, setup.token, setup.projectId, "Second site");
    const disabled = await request.post(`/api/Projects/${setup.projectId}/public-video-shares/DEV/disable`, { headers: bearer(setup.token) });
    expect(disabled.status(), await disabled.text()).toBe(200);
    const revoked = await request.post(`/api/credentials/${credential.id}/revoke`, { headers: bearer(setup.token) });
    expect(revoked.status()).toBe(200);
    const viewer = await createProjectMember(setup.projectId, "Viewer", "Audit viewer");

    const read = async (token: string) => {
      const response = await request.get(`/api/Projects/${setup.projectId}/audit-events`, { headers: bearer(token) });
      expect(response.status(), await response.text()).toBe(200);
      return { page: (await response.json()) as AuditPage, text: await response.text() };
    };
    const manager = await read(setup.token);
    const asViewer = await read(viewer.token);

    const actions = ["credential.revoked", "share.disabled", "credential.created", "share.created", "credential.created", "template.uploaded"];
    expect(manager.page.items.map((event) => event.action)).toEqual(actions);
    expect(asViewer.page.items.map((event) => event.action)).toEqual(actions);

    const managerEmails = [...new Set(manager.page.items.map((event) => event.actor!.email))];
    expect(managerEmails).toHaveLength(1);
    expect(managerEmails[0]).toMatch(/^audit-roles-.*@example\.com$/);
    const apiKeys = manager.page.items.filter((event) => event.action === "credential.created").map((event) => event.data!.apiKey);
    expect(apiKeys).toContain(credential.apiKey);
    expect(apiKeys.every((key) => typeof key === "string" && key.startsWith("pk_"))).toBe(true);

    for (const event of asViewer.page.items) {
      expect(event.actor).toEqual({ id: manager.page.items[0]!.actor!.id, email: "a project member" });
      expect(event.data ?? {}).not.toHaveProperty("apiKey");
    }
    expect(asViewer.page.items.find((event) => event.action === "credential.created")!.data).toEqual({ name: "Second site" });
    expect(asViewer.text).not.toContain(managerEmails[0]!);
    for (const key of apiKeys) expect(asViewer.text).not.toContain(key as string);
  });
});
