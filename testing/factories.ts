import { randomUUID } from "node:crypto";
import { organizationOfProject } from "@/lib/accounts/organization-access";
import { createOrganization, createPersonalAccessToken, createUser } from "@/lib/accounts/operator";
import { addOrganizationMember, createOrganizationProject } from "@/lib/accounts/organizations";
import { getDb } from "@/lib/db";
import type { Role } from "@/lib/db/schema";
import { operatorContext } from "@/lib/services/operator-verbs";
import { systemOrganizationContext } from "@/lib/services/organization-verbs";

// Every test file builds its own tenants: no shared seed ids, so files never see each other's
// data. They are made as the operator makes them (the CLI's verbs), audit rows included: a
// project's trail starts with its project.created.

export async function createTestProject(name = "Test project") {
  const db = await getDb();
  const organization = await createOrganization(operatorContext(db), { name: `Org ${randomUUID().slice(0, 8)}` });
  const project = await createTestProjectIn(organization.id, name);
  return { organization, project };
}

/** Another project of an organization. */
export async function createTestProjectIn(organizationId: string, name = "Test project") {
  const db = await getDb();
  return createOrganizationProject(await systemOrganizationContext(db, organizationId), { name });
}

type MemberScope = { organizationId: string } | { projectId: string };

/** A user with one membership and a personal access token to call the API with. */
export async function createTestMember(role: Role, scope: MemberScope) {
  const db = await getDb();
  const operator = operatorContext(db);
  const user = await createUser(operator, { email: `${role.toLowerCase()}-${randomUUID()}@test.example`, password: "correct horse battery" });
  const organizationId = "organizationId" in scope ? scope.organizationId : await organizationOfProject(db, scope.projectId);
  await addOrganizationMember(await systemOrganizationContext(db, organizationId), { userId: user.id, role, ...("projectId" in scope ? { projectId: scope.projectId } : {}) });
  const { token } = await createPersonalAccessToken(operator, { userId: user.id });
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
