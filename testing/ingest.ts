import { randomUUID } from "node:crypto";
import { asc, count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { analyticsEvents, analyticsQuarantineCounts, templates } from "@/lib/db/schema";
import { createTestProject } from "@/testing/factories";
import { mintIngestToken } from "@/lib/tokens/ingest-token";
import type { EventPayloads, WireEvent } from "@/shared/events/wire-events";
import type { EventRow } from "@/lib/ingest/store-events";
import type { EventType } from "@/lib/ingest/validate-events";

// Shared by the ingest handler tests and the standalone-server tests. Every test takes a fresh
// tenant (random organization and project ids: analytics_events has no foreign keys and the
// token carries the ids), so row counts and rate-limit buckets never mix between tests.

export type Tenant = { organizationId: string; projectId: string };

export const newTenant = (): Tenant => ({ organizationId: randomUUID(), projectId: randomUUID() });

/**
 * The template wireEvent's events name, and the one ingestTokenFor's tokens carry: tokens with a
 * template need no templates row, so a made-up tenant's events are stored.
 */
export const servedTemplate = { id: "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b", version: "1.0" } as const;

export const payloads: { [T in EventType]: EventPayloads[T] } = {
  "session.started": {},
  "video.played": { position_ms: 0 },
  "video.paused": { position_ms: 12_345 },
  "video.progressed": { position_ms: 7_500, percent: 25 },
  "video.completed": { duration_ms: 30_000, percent: 100 },
  "video.incomplete": { position_ms: 9_000, percent: 30 },
  "video.errored": { error_code: "MEDIA_DECODE" },
  "autoplay.failed": { reason: "NotAllowedError" },
  "cta.clicked": { cta_id: "book", cta_name: "Book a demo", position_ms: 28_000 },
  "interaction.engaged": { action: "unmute" },
  "chapter.entered": { chapter_id: "intro", chapter_name: "Intro", position_ms: 0 },
  "chapter.exited": { chapter_id: "intro", chapter_name: "Intro", position_ms: 3_000 },
  "consent.accepted": { source: "banner" },
  "consent.declined": { source: "host" },
};

/** A template row of `projectId` with `version`: its id and version. */
export async function addTemplate(projectId: string, version = "1.0"): Promise<{ id: string; version: string }> {
  const db = await getDb();
  const [row] = await db
    .insert(templates)
    .values({ projectId, name: `Template ${version}`, kind: "LottieStandalone", version })
    .returning({ id: templates.id, version: templates.version });
  return row!;
}

/** A tenant with organization and project rows and one template: for tokens that name no template. */
export async function tenantWithTemplate(): Promise<{ tenant: Tenant; template: { id: string; version: string } }> {
  const { organization, project } = await createTestProject();
  return { tenant: { organizationId: organization.id, projectId: project.id }, template: await addTemplate(project.id) };
}

/** A valid wire event of `tenant` with a fresh event_id; `overrides` replace fields. */
export function wireEvent<T extends EventType>(
  tenant: Tenant,
  eventType: T = "video.played" as T,
  overrides: Record<string, unknown> = {},
): WireEvent<T> {
  return {
    event_id: randomUUID(),
    event_type: eventType,
    occurred_at: "2026-11-21T10:00:00.123Z",
    playback_id: eventType.startsWith("video.") ? 1 : null,
    payload: payloads[eventType],
    organization_id: tenant.organizationId,
    project_id: tenant.projectId,
    template_id: servedTemplate.id,
    template_version: servedTemplate.version,
    session_id: randomUUID(),
    consent: { status: "granted" },
    ...overrides,
  } as WireEvent<T>;
}

export function eventBatch(events: unknown[]) {
  return { sent_at: "2026-11-21T10:00:01.000Z", events };
}

/** `n` valid events of `tenant`, cycling through a few types. */
export function manyEvents(tenant: Tenant, n: number): WireEvent[] {
  const types: EventType[] = ["video.played", "video.progressed", "cta.clicked", "video.paused"];
  return Array.from({ length: n }, (_, i) => wireEvent(tenant, types[i % types.length]!));
}

type TokenExtra = {
  allowedOrigins?: string[];
  shareId?: string;
  channel?: "DEV" | "STAGING" | "PROD";
  /** The template the token names; servedTemplate unless given, null for none (as tokens minted before they carried one). */
  template?: { id: string; version: string } | null;
};

/** An ingest token signed with the configured secret (TOKEN_SECRETS of testing/setup.ts). */
export async function ingestTokenFor(tenant: Tenant, { template = servedTemplate, ...extra }: TokenExtra = {}): Promise<string> {
  return (await mintIngestToken({ ...tenant, ...extra, templateId: template?.id, templateVersion: template?.version })).token;
}

/** The first configured secret: hand-built tokens that should verify except for one flaw use it. */
export function configuredSecret() {
  const [secret] = getConfig().tokenSecrets;
  if (!secret) throw new Error("TOKEN_SECRETS is not configured for the tests");
  return secret;
}

export type BatchRequestOptions = {
  token?: string;
  /** Serialized as JSON unless rawBody or stream is given. */
  body?: unknown;
  rawBody?: string;
  stream?: ReadableStream<Uint8Array>;
  origin?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
};

/** RequestInit for POST /analytics/v1/events (for the handler through `new Request`, or for fetch). */
export function batchRequestInit(options: BatchRequestOptions): RequestInit {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
  if (options.origin !== undefined) headers.set("origin", options.origin);
  const contentType = options.contentType === undefined ? "application/json" : options.contentType;
  if (contentType !== null) headers.set("content-type", contentType);
  const body = options.stream ?? options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return { method: "POST", headers, body, ...(options.stream ? { duplex: "half" } : {}) } as RequestInit;
}

export const eventsUrl = "http://localhost:3000/analytics/v1/events";
export const consentUrl = "http://localhost:3000/analytics/v1/consent";

export function batchRequest(options: BatchRequestOptions, url = eventsUrl): Request {
  const init = batchRequestInit(options);
  // A string body would otherwise get text/plain from the Request constructor.
  if (options.contentType === null && typeof init.body === "string") return new Request(url, { ...init, body: new Blob([init.body]) });
  return new Request(url, init);
}

/** A body stream of `totalBytes` bytes in 64 KB chunks (no Content-Length), counting what was pulled. */
export function byteStream(totalBytes: number | typeof Infinity): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(chunk.byteLength, totalBytes - sent);
      controller.enqueue(chunk.subarray(0, size));
      sent += size;
    },
  });
  return { stream, pulled: () => sent };
}

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
};

/** Asserts a problem+json answer with `status` and returns its body. */
export async function expectProblem(response: Response, status: number): Promise<Problem> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(text) as Problem;
  expect(problem.status).toBe(status);
  return problem;
}

export async function expectAccepted(response: Response, accepted: number, duplicates = 0, quarantined = 0): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(202);
  expect(JSON.parse(text)).toEqual({ accepted, duplicates, quarantined });
}

export async function storedCount(projectId: string): Promise<number> {
  const db = await getDb();
  const [result] = await db.select({ n: count() }).from(analyticsEvents).where(eq(analyticsEvents.projectId, projectId));
  return result!.n;
}

/** The project's quarantine counts by reason, summed over hours. */
export async function quarantineCounts(projectId: string): Promise<Record<string, number>> {
  const db = await getDb();
  const rows = await db.select().from(analyticsQuarantineCounts).where(eq(analyticsQuarantineCounts.projectId, projectId));
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.reason] = (counts[row.reason] ?? 0) + row.count;
  return counts;
}

export async function storedEvents(projectId: string) {
  const db = await getDb();
  return db.select().from(analyticsEvents).where(eq(analyticsEvents.projectId, projectId)).orderBy(asc(analyticsEvents.eventId));
}

/** A stored-event row of projectId with every column set (override any). */
export function eventRow(projectId: string, overrides: Partial<EventRow> = {}): EventRow {
  return {
    organization_id: randomUUID(),
    project_id: projectId,
    event_id: randomUUID(),
    event_type: "video.progressed",
    occurred_at: "2026-11-21T10:00:00.123Z",
    received_at: "2026-11-21T10:00:01.456Z",
    template_id: randomUUID(),
    template_version: "1.0",
    session_id: randomUUID(),
    playback_id: 1,
    viewer_hash: "f00d",
    referrer_host: "example.com",
    consent: { status: "granted" },
    payload: { position_ms: 1500, percent: 25 },
    device: { type: "desktop", os: "Linux", browser: "Chrome" },
    geo: { country: "PT" },
    share_id: randomUUID(),
    channel: "PROD",
    is_bot: false,
    ...overrides,
  };
}
