import { expect, test, type APIRequestContext } from "@playwright/test";
import { createOwnedProject, type OwnedProject } from "./owned-project";

// Issue 30, finding 2: a personal access token may create tokens. Revoking it must revoke what it
// created, transitively and at once; a token carries scopes (read, and a write scope per kind of
// change) that every route checks beside the role, and cannot create a token wider than itself.

type Token = { id: string; token: string; scopes: string[]; parentTokenId: string | null };

let owned: OwnedProject;

test.beforeAll(async () => {
  // A ProjectManager of a fresh project, with a token made by the CLI (every scope).
  owned = await createOwnedProject("Security tokens");
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createToken(request: APIRequestContext, token: string, data: Record<string, unknown>): Promise<Token> {
  const response = await request.post("/api/me/tokens", { headers: bearer(token), data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Token;
}

const meStatus = async (request: APIRequestContext, token: string) => (await request.get("/api/me", { headers: bearer(token) })).status();

test("POST /api/me/tokens/{id}/revoke – the tokens it created, and theirs, are refused (401) at once; its parent and siblings still work", async ({ request }) => {
  const parent = await createToken(request, owned.token, { name: "parent" });
  const child = await createToken(request, parent.token, { name: "child" });
  const grandchild = await createToken(request, child.token, { name: "grandchild" });
  const sibling = await createToken(request, owned.token, { name: "sibling" });
  for (const token of [parent, child, grandchild]) expect(await meStatus(request, token.token)).toBe(200);

  const revoked = await request.post(`/api/me/tokens/${parent.id}/revoke`, { headers: bearer(owned.token) });
  expect(revoked.status()).toBe(200);
  expect(await meStatus(request, parent.token)).toBe(401);
  expect(await meStatus(request, child.token)).toBe(401);
  expect(await meStatus(request, grandchild.token)).toBe(401);
  const templates = await request.get(`/api/Projects/${owned.projectId}/templates`, { headers: bearer(grandchild.token) });
  expect(templates.status()).toBe(401);
  expect(await meStatus(request, owned.token)).toBe(200);
  expect(await meStatus(request, sibling.token)).toBe(200);

  const listed = (await (await request.get("/api/me/tokens", { headers: bearer(owned.token) })).json()) as { items: (Token & { status: string })[] };
  const status = new Map(listed.items.map((token) => [token.id, token.status]));
  expect([status.get(parent.id), status.get(child.id), status.get(grandchild.id), status.get(sibling.id)]).toEqual(["Revoked", "Revoked", "Revoked", "Active"]);
});

test("a read-only token (scopes: [read]) – 200 on reads, 403 on every kind of write, though its user's role allows them", async ({ request }) => {
  const readOnly = await createToken(request, owned.token, { name: "dashboards", scopes: ["read"] });
  expect(readOnly.scopes).toEqual(["read"]);
  const auth = bearer(readOnly.token);
  const project = `/api/Projects/${owned.projectId}`;
  for (const path of [`${project}/templates`, `${project}/public-video-shares`, `${project}/audit-events`, `/api/credentials?projectId=${owned.projectId}`, "/api/me", "/api/me/tokens"]) {
    expect((await request.get(path, { headers: auth })).status(), path).toBe(200);
  }
  for (const [method, path, data] of [
    ["PUT", `${project}/public-video-shares/DEV`, { publicTitle: "Read-only" }],
    ["POST", "/api/credentials", { projectId: owned.projectId, name: "read-only" }],
    ["POST", `${project}/webhooks`, { url: "https://example.com/hook" }],
    ["POST", `${project}/campaigns`, { name: "Read-only", channel: "DEV" }],
    ["POST", `/api/me/tokens/${readOnly.id}/revoke`, undefined],
  ] as const) {
    const response = await request.fetch(path, { method, headers: auth, data });
    expect(response.status(), `${method} ${path}`).toBe(403);
    expect(response.headers()["content-type"]).toContain("application/problem+json");
  }
  // The same calls with the user's all-scope token are allowed: the role was never the reason.
  const credential = await request.post("/api/credentials", { headers: bearer(owned.token), data: { projectId: owned.projectId, name: "full token" } });
  expect(credential.status()).toBe(201);
});

test("a token cannot mint a token wider than itself: read-only → a write scope is 403; [read, tokens:write] → webhooks:write is 403, its own scopes 201", async ({ request }) => {
  const readOnly = await createToken(request, owned.token, { name: "read-only", scopes: ["read"] });
  const wider = await request.post("/api/me/tokens", { headers: bearer(readOnly.token), data: { name: "wider", scopes: ["read", "templates:write"] } });
  expect(wider.status()).toBe(403);

  const minter = await createToken(request, owned.token, { name: "minter", scopes: ["read", "tokens:write"] });
  const escalated = await request.post("/api/me/tokens", { headers: bearer(minter.token), data: { name: "escalated", scopes: ["read", "webhooks:write"] } });
  expect(escalated.status()).toBe(403);
  expect(((await escalated.json()) as { detail: string }).detail).toContain("webhooks:write");
  const inherited = await createToken(request, minter.token, { name: "inherited" });
  expect(inherited).toMatchObject({ scopes: ["read", "tokens:write"], parentTokenId: minter.id });
  const created = await request.post(`/api/Projects/${owned.projectId}/webhooks`, { headers: bearer(inherited.token), data: { url: "https://example.com/hook" } });
  expect(created.status()).toBe(403);
});

test("POST /api/me/tokens – `scopes` is accepted; an unknown scope is a 422 naming the field and the known scopes", async ({ request }) => {
  const scoped = await createToken(request, owned.token, { name: "deployer", scopes: ["read", "templates:write"] });
  expect(scoped.scopes).toEqual(["read", "templates:write"]);
  const unknown = await request.post("/api/me/tokens", { headers: bearer(owned.token), data: { name: "x", scopes: ["read", "admin"] } });
  expect(unknown.status()).toBe(422);
  const problem = (await unknown.json()) as { errors: { path: string; message: string }[] };
  expect(problem.errors).toEqual([{ path: "scopes.1", message: expect.stringContaining("templates:write") }]);
});
