import { randomUUID } from "node:crypto";
import { roles } from "@/lib/auth/permissions";
import type { Role } from "@/lib/db/schema";
import { fixture } from "@/testing/multipart";
import { cli } from "../e2e/owned-project";
import { send } from "./server-watch";

// The organizations, projects, users and credentials the bad-input specs work on, made through
// the CLI (what only an operator can do: organizations, their first admin, tokens) and the
// API (the rest). Organization A has the project the actors belong to ("own") and a second
// project ("foreign project"); organization B has a third ("foreign organization").

export type Credential = { id: string; apiKey: string; apiSecret: string };

export type Project = {
  orgId: string;
  projectId: string;
  /** An OrganizationAdmin of the project's organization: prepares what a case needs. */
  adminToken: string;
  credential: Credential;
  /** A Testing template; the DEV share serves it. */
  templateId: string;
  share: { slug: string };
};

export type Member = { role: Role; scope: "organization" | "project"; userId: string; email: string; token: string };

export type Tenants = { own: Project; foreignProject: Project; foreignOrg: Project; members: Member[] };

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const basic = ({ apiKey, apiSecret }: Credential) => ({ Authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}` });

/** Runs fn over items, at most limit at a time (each CLI run is a process of its own). */
export async function inParallel<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A JSON answer with the expected status, or an error saying what came instead. */
export async function callOk<T>(method: string, url: string, headers: Record<string, string>, body?: unknown, status = 200): Promise<T> {
  const answer = await send({
    method,
    url,
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if ("error" in answer || answer.status !== status) throw new Error(`${method} ${url} → ${JSON.stringify(answer).slice(0, 500)}`);
  return JSON.parse(answer.body) as T;
}

/** The small Lottie fixture as a multipart upload body. */
export function lightsUploadForm(name = "Lights"): FormData {
  const form = new FormData();
  form.set("name", name);
  form.set("kind", "LottieStandalone");
  form.set("templateJson", new Blob([new Uint8Array(fixture("lottie/lights.json"))], { type: "application/json" }), "lights.json");
  return form;
}

/** Uploads the small Lottie fixture (a Testing template) and returns its id. */
export async function uploadTemplate(projectId: string, token: string): Promise<string> {
  const answer = await send({ method: "POST", url: `/api/Projects/${projectId}/templates/upload`, headers: bearer(token), body: lightsUploadForm() });
  if ("error" in answer || answer.status !== 201) throw new Error(`upload → ${JSON.stringify(answer).slice(0, 500)}`);
  return (JSON.parse(answer.body) as { id: string }).id;
}

/** The lights Lottie as JSON text without its file's whitespace: what a JSON body carrying it sends. */
export const lightsJsonText = () => JSON.stringify(JSON.parse(fixture("lottie/lights.json").toString("utf8")));

/** An upload-session declaration of the lights Lottie (docs/direct-uploads.md). */
export const lightsSessionBody = (name = "Lights") => ({
  fields: { name, kind: "LottieStandalone" },
  files: [{ role: "templateJson", name: "lights.json", type: "application/json", size: Buffer.byteLength(lightsJsonText()) }],
});

/** An open upload session of the lights Lottie, its one part sent when `sent`; its id and the part's URL (path and query). */
export async function createUploadVictim(projectId: string, adminToken: string, sent: boolean): Promise<{ uploadId: string; partUrl: string }> {
  const session = await callOk<{ id: string; files: { parts: { url: string }[] }[] }>(
    "POST",
    `/api/Projects/${projectId}/templates/uploads`,
    bearer(adminToken),
    lightsSessionBody(),
    201,
  );
  const part = new URL(session.files[0]!.parts[0]!.url);
  if (sent) {
    const answer = await send({ method: "PUT", url: `${part.pathname}${part.search}`, headers: {}, body: lightsJsonText() });
    if ("error" in answer || answer.status !== 200) throw new Error(`part → ${JSON.stringify(answer).slice(0, 500)}`);
  }
  return { uploadId: session.id, partUrl: `${part.pathname}${part.search}` };
}

export async function createCredential(projectId: string, token: string): Promise<Credential> {
  return callOk<Credential>("POST", "/api/credentials", bearer(token), { projectId, name: "bad inputs" }, 201);
}

async function createOrganization(label: string): Promise<{ orgId: string; adminToken: string }> {
  const run = randomUUID();
  const email = `${label.toLowerCase().replace(/\W+/g, "-")}-admin-${run}@example.com`;
  const [org] = await Promise.all([cli<{ id: string }>("org", "create", "--name", `${label} ${run}`), cli("user", "create", "--email", email)]);
  await cli("member", "add", "--user", email, "--org", org.id, "--role", "OrganizationAdmin");
  const { token } = await cli<{ token: string }>("token", "create", "--user", email);
  return { orgId: org.id, adminToken: token };
}

/** A project with a Testing template, a credential and a DEV share serving the template. */
async function createProject(org: { orgId: string; adminToken: string }, name: string): Promise<Project> {
  const { id: projectId } = await callOk<{ id: string }>("POST", `/api/organizations/${org.orgId}/projects`, bearer(org.adminToken), { name }, 201);
  const [templateId, credential] = await Promise.all([uploadTemplate(projectId, org.adminToken), createCredential(projectId, org.adminToken)]);
  const share = await callOk<{ slug: string }>(
    "PUT",
    `/api/Projects/${projectId}/public-video-shares/DEV`,
    bearer(org.adminToken),
    { publicTitle: name, apiCredentialId: credential.id },
    201,
  );
  return { ...org, projectId, credential, templateId, share: { slug: share.slug } };
}

/**
 * The token of a recipient of a campaign on the project's DEV share (the poster route's
 * `{token}`), with their poster rendered once: later reads of it store nothing.
 */
/** Imports one recipient of the given id into the campaign (its DEV share's template fills `text`); answers the recipient's id. */
export async function addCampaignRecipient(project: Project, campaignId: string, externalId: string): Promise<string> {
  const campaign = `/api/Projects/${project.projectId}/campaigns/${campaignId}`;
  const admin = bearer(project.adminToken);
  await callOk("POST", `${campaign}/recipients`, admin, { recipients: [{ id: externalId, text: "Victim" }] }, 201);
  for (let cursor: string | null = null; ; ) {
    const page: { items: { id: string; externalId: string }[]; nextCursor: string | null } = await callOk("GET", `${campaign}/recipients?limit=500${cursor ? `&cursor=${cursor}` : ""}`, admin);
    const found = page.items.find((item) => item.externalId === externalId);
    if (found) return found.id;
    if (!page.nextCursor) throw new Error(`recipient ${externalId} was not listed after its import`);
    cursor = page.nextCursor;
  }
}

export async function createRecipientVictim(project: Project, campaignId: string): Promise<string> {
  const campaign = `/api/Projects/${project.projectId}/campaigns/${campaignId}`;
  await callOk("POST", `${campaign}/recipients`, bearer(project.adminToken), { recipients: [{ id: "poster-victim", text: "Victim" }] }, 201);
  const { items } = await callOk<{ items: { url: string }[] }>("GET", `${campaign}/recipients`, bearer(project.adminToken));
  const token = new URL(items[0]!.url).pathname.split("/").pop()!;
  await send({ method: "GET", url: `/api/embed/posters/${project.share.slug}/${token}`, headers: {} });
  return token;
}

/** Invites a new user to the organization (or one of its projects), who accepts by choosing a password; gives them a token (CLI). */
export async function addMember(project: Project, role: Role, scope: Member["scope"]): Promise<Member> {
  const email = `${scope}-${role.toLowerCase()}-${randomUUID()}@example.com`;
  const { acceptUrl } = await callOk<{ acceptUrl: string }>(
    "POST",
    `/api/organizations/${project.orgId}/members`,
    bearer(project.adminToken),
    { email, role, ...(scope === "project" ? { projectId: project.projectId } : {}) },
    201,
  );
  const token = new URL(acceptUrl).pathname.split("/").pop();
  const accepted = await callOk<{ userId: string }>("POST", "/api/invitations/create-account", {}, { token, password: `pw-${randomUUID()}` }, 201);
  const created = await cli<{ token: string }>("token", "create", "--user", email);
  return { role, scope, userId: accepted.userId, email, token: created.token };
}

/** Organizations A and B, their projects, and (withMembers) a member of A per role, on the organization and on its first project. */
export async function setUpTenants(label: string, { withMembers }: { withMembers: boolean }): Promise<Tenants> {
  const [orgA, orgB] = await Promise.all([createOrganization(`${label} A`), createOrganization(`${label} B`)]);
  const [own, foreignProject, foreignOrg] = await Promise.all([
    createProject(orgA, `${label} own`),
    createProject(orgA, `${label} foreign project`),
    createProject(orgB, `${label} foreign organization`),
  ]);
  const wanted = withMembers ? roles.flatMap((role) => (["organization", "project"] as const).map((scope) => ({ role, scope }))) : [];
  const members = await inParallel(wanted, 4, ({ role, scope }) => addMember(own, role, scope));
  return { own, foreignProject, foreignOrg, members };
}

/**
 * A webhook endpoint of the project (on loopback: the test apps run with WEBHOOK_ALLOW_PRIVATE=1)
 * and a failed delivery of it, which can be re-sent: a test event, failed by disabling the endpoint.
 */
export async function createWebhookVictim(projectId: string, adminToken: string): Promise<{ endpointId: string; deliveryId: string }> {
  const admin = bearer(adminToken);
  const endpoint = await callOk<{ id: string }>("POST", `/api/Projects/${projectId}/webhooks`, admin, { url: "http://127.0.0.1:9/matrix" }, 201);
  const delivery = await callOk<{ id: string }>("POST", `/api/Projects/${projectId}/webhooks/${endpoint.id}/test`, admin, undefined, 202);
  await callOk("PATCH", `/api/Projects/${projectId}/webhooks/${endpoint.id}`, admin, { enabled: false });
  return { endpointId: endpoint.id, deliveryId: delivery.id };
}
