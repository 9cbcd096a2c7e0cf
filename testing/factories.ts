import { randomUUID } from "node:crypto";
import { addMember, createOrganization, createPersonalAccessToken, createProject, createUser } from "@/lib/accounts/accounts";
import { getDb } from "@/lib/db";
import type { Role } from "@/lib/db/schema";

// Every test file builds its own tenants: no shared seed ids, so files never see each other's data.

export async function createTestProject(name = "Test project") {
  const db = await getDb();
  const organization = await createOrganization(db, { name: `Org ${randomUUID().slice(0, 8)}` });
  const project = await createProject(db, { organizationId: organization.id, name });
  return { organization, project };
}

type MemberScope = { organizationId: string } | { projectId: string };

/** A user with one membership and a personal access token to call the API with. */
export async function createTestMember(role: Role, scope: MemberScope) {
  const db = await getDb();
  const user = await createUser(db, { email: `${role.toLowerCase()}-${randomUUID()}@test.example`, password: "correct horse battery" });
  await addMember(db, { userId: user.id, role, ...scope });
  const { token } = await createPersonalAccessToken(db, { userId: user.id });
  return { user, token };
}

type RequestOptions = { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };

/** A Request as a route handler receives it; JSON bodies get their Content-Type. */
export function apiRequest(method: string, url: string, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(new URL(url, "http://localhost:3000"), { method, headers, body });
}

export function routeParams<P>(params: P) {
  return { params: Promise.resolve(params) };
}
