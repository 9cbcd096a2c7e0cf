import { expect } from "@playwright/test";
import { fixture, multipartBody } from "../testing/multipart";
import type { StartedApp } from "../testing/start-app";
import { ctaClick, type Manifest } from "../e2e/wire-events";
import { timedFetch, type Outcome } from "./open-load";

// The traffic of the load and fault specs, against one app started by the test: management
// reads and writes through the REST API with the bootstrapped token, and analytics batches with
// the ingest token of the demo share's page manifest. Each request says its class and outcome;
// every event id is noted as acknowledged (202) or not, for counting them in the database.

export type LoadTarget = {
  base: string;
  projectId: string;
  auth: Record<string, string>;
  credentialId: string;
  templateId: string;
  /** The PROD share's slug. */
  slug: string;
  manifest: Manifest;
};

export type EventLedger = { acknowledged: string[]; refused: string[] };

/** A credential, DEV and STAGING shares using it, and the PROD share's page manifest (its ingest token). */
export async function prepareLoadTarget(app: StartedApp): Promise<LoadTarget> {
  const base = app.baseUrl;
  const auth = { Authorization: `Bearer ${app.token}` };
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...init.headers } });
    const body = await response.text();
    expect(response.ok, `${init.method ?? "GET"} ${path}: ${response.status} ${body}`).toBe(true);
    return JSON.parse(body) as Record<string, unknown>;
  };
  const credential = await call("/api/credentials", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ projectId: app.projectId, name: "Load" }),
  });
  for (const channel of ["DEV", "STAGING"]) {
    await call(`/api/Projects/${app.projectId}/public-video-shares/${channel}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ publicTitle: `Load ${channel}`, apiCredentialId: credential.id }),
    });
  }
  const templates = (await call(`/api/Projects/${app.projectId}/templates`)) as { items: { id: string }[] };
  const slug = new URL(app.shareUrl).pathname.split("/").pop()!;
  const manifest = (await call(`/api/embed/manifest?share=${slug}`)) as unknown as Manifest;
  return { base, projectId: app.projectId, auth, credentialId: credential.id as string, templateId: templates.items[0]!.id, slug, manifest };
}

const succeeded = (outcome: Outcome) => typeof outcome.status === "number" && outcome.status < 300;

/** A small Lottie template uploaded, then deployed: the write that moves the project's Production template. */
export async function uploadAndDeploy(target: Pick<LoadTarget, "base" | "projectId" | "auth">, index: number): Promise<Outcome> {
  const { body, contentType } = multipartBody([
    { name: "name", value: "Load lights" },
    { name: "kind", value: "LottieStandalone" },
    { name: "version", value: `1.${index}` },
    { name: "templateJson", filename: "lights.json", content: fixture("lottie/lights.json"), contentType: "application/json" },
  ]);
  const projectPath = `${target.base}/api/Projects/${target.projectId}`;
  const uploaded = await timedFetch(`${projectPath}/templates/upload`, { method: "POST", headers: { ...target.auth, "Content-Type": contentType }, body });
  if (!succeeded(uploaded.outcome)) return uploaded.outcome;
  const { id } = JSON.parse(uploaded.body) as { id: string };
  return (await timedFetch(`${projectPath}/templates/${id}/deploy`, { method: "POST", headers: target.auth })).outcome;
}

/**
 * Management request `index`: a fixed cycle of reads (lists, a template, credentials, the page
 * manifest) and writes (share PUT, disable, restore, a new credential), with a template upload
 * and deploy every 40th request. Every request of the cycle succeeds on a healthy server,
 * whatever order the answers come back in (PUT, disable and restore are idempotent).
 */
export async function managementRequest(target: LoadTarget, index: number): Promise<{ kind: string; outcome: Outcome }> {
  const { base, projectId, auth } = target;
  const projectPath = `${base}/api/Projects/${projectId}`;
  const read = async (url: string, headers: Record<string, string> = auth) => ({ kind: "read", outcome: (await timedFetch(url, { headers })).outcome });
  const write = async (url: string, init: RequestInit) => ({ kind: "write", outcome: (await timedFetch(url, { ...init, headers: { ...auth, ...init.headers } })).outcome });
  if (index % 40 === 39) return { kind: "upload+deploy", outcome: await uploadAndDeploy(target, index) };
  switch (index % 10) {
    case 0:
    case 6:
      return read(`${projectPath}/public-video-shares`);
    case 1:
      return read(`${projectPath}/templates`);
    case 2:
      return read(`${projectPath}/templates/${target.templateId}`);
    case 3:
      return read(`${base}/api/credentials?projectId=${projectId}`);
    case 4:
      return write(`${projectPath}/public-video-shares/STAGING`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ publicTitle: `Load ${index}`, apiCredentialId: target.credentialId }),
      });
    case 5:
      return write(`${projectPath}/public-video-shares/DEV/disable`, { method: "POST" });
    case 7:
      return write(`${projectPath}/public-video-shares/DEV/restore`, { method: "POST" });
    case 8:
      return write(`${base}/api/credentials`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ projectId, name: `Load ${index}` }),
      });
    default:
      return read(`${base}/api/embed/manifest?share=${target.slug}`, {});
  }
}

/** An analytics batch of `size` new events; their ids go to the ledger as acknowledged (202) or refused. */
export async function ingestBatch(target: LoadTarget, ledger: EventLedger, size: number): Promise<{ kind: string; outcome: Outcome }> {
  const events = Array.from({ length: size }, () => ctaClick(target.manifest));
  const { outcome } = await timedFetch(`${target.manifest.ingest.url}/analytics/v1/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${target.manifest.ingest.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ sent_at: new Date().toISOString(), events }),
  });
  (outcome.status === 202 ? ledger.acknowledged : ledger.refused).push(...events.map((event) => event.event_id));
  return { kind: "ingest", outcome };
}
