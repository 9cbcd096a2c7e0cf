import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { and, asc, eq, inArray } from "drizzle-orm";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { fieldChanges, type AuditChange } from "@/lib/audit/changes";
import { randomBase62 } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { apiCredentials, publicVideoShares, shareSlugs, type Channel } from "@/lib/db/schema";
import { audited, projectVerb, type AuditedChange, type Permitted } from "@/lib/services/verbs";
import { findServedTemplate } from "@/lib/templates/served-template";
import { checkTemplateData } from "@/lib/templates/template-data-rules";
import type { PutShareInput } from "./contract";

type ShareRow = typeof publicVideoShares.$inferSelect;
type ShareScope = { projectId: string; channel: Channel };
type ShareStatus = ShareRow["status"];

/** 22 base62 characters: 131 random bits, URL-safe as it is. */
const slugLength = 22;

export function shareUrl(slug: string): string {
  return `${getConfig().publicBaseUrl}/v/${slug}`;
}

export function presentShare(row: ShareRow) {
  return {
    id: row.id,
    projectId: row.projectId,
    channel: row.channel,
    slug: row.slug,
    url: shareUrl(row.slug),
    status: row.status,
    publicTitle: row.publicTitle,
    publicSubtitle: row.publicSubtitle,
    locale: row.locale,
    ctaLabel: row.ctaLabel,
    ctaUrl: row.ctaUrl,
    personalizationData: row.personalizationData,
    consentMode: row.consentMode,
    apiCredentialId: row.apiCredentialId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    disabledAt: row.disabledAt,
    disabledBy: row.disabledBy,
    restoredAt: row.restoredAt,
    restoredBy: row.restoredBy,
  };
}

export type Share = ReturnType<typeof presentShare>;

/** The project's shares in channel order (DEV, STAGING, PROD). */
export const listShares = projectVerb("share.read", async ({ db, access: { project } }): Promise<Share[]> => {
  const rows = await db
    .select()
    .from(publicVideoShares)
    .where(eq(publicVideoShares.projectId, project.id))
    .orderBy(asc(publicVideoShares.channel));
  return rows.map(presentShare);
});

/** Locks the channel's share for the rest of the transaction; null when the channel has none. */
async function lockShare(tx: Db, { projectId, channel }: ShareScope): Promise<ShareRow | null> {
  const [row] = await tx
    .select()
    .from(publicVideoShares)
    .where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, channel)))
    .for("update");
  return row ?? null;
}

export async function lockShareOrThrow(tx: Db, scope: ShareScope): Promise<ShareRow> {
  const row = await lockShare(tx, scope);
  if (!row) throw new NotFoundError(`The project has no ${scope.channel} share.`);
  return row;
}

/** Reserves a fresh slug for a share in the registry of every slug ever issued. */
async function issueSlug(tx: Db, shareId: string): Promise<string> {
  const slug = randomBase62(slugLength);
  await tx.insert(shareSlugs).values({ slug, shareId });
  return slug;
}

/** A share may only render with an active credential of its own project; the row lock holds off a concurrent revoke. */
async function requireActiveCredential(tx: Db, projectId: string, credentialId: string): Promise<void> {
  const [credential] = await tx
    .select({ id: apiCredentials.id })
    .from(apiCredentials)
    .where(
      and(eq(apiCredentials.id, credentialId), eq(apiCredentials.projectId, projectId), eq(apiCredentials.status, "active")),
    )
    .for("share");
  if (!credential) {
    throw new ValidationError([{ path: "apiCredentialId", message: "must be an active API credential of this project" }]);
  }
}

/** The audit row of a change to `share`: its channel and slug, and what `data` adds. */
function shareChange(share: ShareRow, action: string, data?: Record<string, unknown>): AuditedChange {
  return { action, targetType: "public_video_share", targetId: share.id, data: { channel: share.channel, slug: share.slug, ...data } };
}

/**
 * The personalization data checked against the template the channel serves now, by the rules
 * and in the words of its live preview (shared/templates/data-rules.ts): a field the manifest marks
 * strict refuses a value that breaks its rule (422, one error per key); anything else is a
 * warning the answer carries. No template served yet: nothing to check against.
 */
async function checkShareData(db: Db, { projectId, channel }: ShareScope, data: PutShareInput["personalizationData"]): Promise<string[]> {
  if (!data) return [];
  const served = await findServedTemplate(db, projectId, channel);
  if (!served) return [];
  const problems = await checkTemplateData(db, served.id, data);
  const refused = problems.filter((problem) => problem.strict);
  if (refused.length > 0) {
    throw new ValidationError(
      refused.map((problem) => ({ path: `personalizationData.${problem.key}`, message: problem.message })),
      `The personalization data breaks rules that ${served.name} ${served.version} (the template the ${channel} share plays) marks strict: ${refused.map((problem) => problem.message).join("; ")}.`,
    );
  }
  return problems.map((problem) => problem.message);
}

/**
 * PUT: creates the channel's share (Enabled, with a new slug) or replaces its configuration,
 * with the warnings its data earns from the template it plays (checkShareData).
 * Idempotent: a body equal to what is stored changes nothing and writes no audit event.
 * Concurrent first PUTs of one channel end with one share: the loser updates the winner's.
 */
export const putShare = projectVerb("share.write", async ({ db, access, write }, { channel, ...input }: PutShareInput & { channel: Channel }) => {
  const scope = { projectId: access.project.id, channel };
  const warnings = await checkShareData(db, scope, input.personalizationData);
  const saved = await write(async (tx) => {
    await requireActiveCredential(tx, scope.projectId, input.apiCredentialId);
    const existing = await lockShare(tx, scope);
    if (existing) return replaceShare(tx, existing, input);

    const id = randomUUID();
    const slug = await issueSlug(tx, id);
    const [created] = await tx
      .insert(publicVideoShares)
      .values({ id, ...scope, slug, ...input })
      .onConflictDoNothing({ target: [publicVideoShares.projectId, publicVideoShares.channel] })
      .returning();
    if (!created) {
      // Another PUT created the share after our lock attempt: the reserved slug was never published.
      await tx.delete(shareSlugs).where(eq(shareSlugs.slug, slug));
      const winner = await lockShareOrThrow(tx, scope);
      return replaceShare(tx, winner, input);
    }
    return audited({ share: presentShare(created), created: true }, shareChange(created, "share.created", { slug }));
  });
  return { ...saved, warnings };
});

const configurationFields = [
  "publicTitle",
  "publicSubtitle",
  "locale",
  "ctaLabel",
  "ctaUrl",
  "personalizationData",
  "consentMode",
  "apiCredentialId",
] as const satisfies readonly (keyof PutShareInput & keyof ShareRow)[];

/** Equal as stored JSON: key order ignored, and -0 is 0 as jsonb keeps it. */
function sameJson(stored: unknown, input: unknown): boolean {
  return isDeepStrictEqual(stored, JSON.parse(JSON.stringify(input ?? null)));
}

/** PUT on an existing share: replaces the configuration fields that differ; none differ, nothing is written or recorded. */
async function replaceShare(tx: Db, share: ShareRow, input: PutShareInput) {
  const changed = configurationFields.filter((field) => !sameJson(share[field], input[field]));
  if (changed.length === 0) return audited({ share: presentShare(share), created: false }, []);
  const [updated] = await tx
    .update(publicVideoShares)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(publicVideoShares.id, share.id))
    .returning();
  const changes = fieldChanges(share, updated!, changed, ["personalizationData"]);
  return audited(
    { share: presentShare(updated!), created: false },
    shareChange(updated!, "share.updated", { changed, changes: await nameCredentials(tx, changes) }),
  );
}

/** A credential change reads by the credentials' names (an id means nothing to a reader; the key id is for ProjectManagers only). */
async function nameCredentials(tx: Db, changes: AuditChange[]): Promise<AuditChange[]> {
  const change = changes.find(({ field }) => field === "apiCredentialId");
  if (!change) return changes;
  const ids = [change.from, change.to].filter((id): id is string => typeof id === "string");
  const rows = await tx.select({ id: apiCredentials.id, name: apiCredentials.name }).from(apiCredentials).where(inArray(apiCredentials.id, ids));
  const nameOf = (id: unknown) => rows.find((row) => row.id === id)?.name ?? null;
  return changes.map((each) => (each === change ? { field: "apiCredential", from: nameOf(change.from), to: nameOf(change.to) } : each));
}

/**
 * disable / restore. A real transition records who and when on the share and as an audit
 * event; a share already in the target state is returned unchanged.
 */
function setShareStatus({ actor, access, write }: Permitted<"share.write">, channel: Channel, status: ShareStatus) {
  return write(async (tx) => {
    const share = await lockShareOrThrow(tx, { projectId: access.project.id, channel });
    // Already in the target state: nothing changes, nothing is recorded.
    if (share.status === status) return audited(presentShare(share), []);
    const now = new Date();
    const who = status === "Disabled" ? { disabledAt: now, disabledBy: actor.userId } : { restoredAt: now, restoredBy: actor.userId };
    const [updated] = await tx
      .update(publicVideoShares)
      .set({ status, ...who, updatedAt: now })
      .where(eq(publicVideoShares.id, share.id))
      .returning();
    return audited(presentShare(updated!), shareChange(updated!, status === "Disabled" ? "share.disabled" : "share.restored"));
  });
}

/** Takes the channel's share offline: its page answers 404; a no-op when already disabled. */
export const disableShare = projectVerb("share.write", (ctx, channel: Channel) => setShareStatus(ctx, channel, "Disabled"));

/** Serves the channel's share again; a no-op when already enabled. */
export const restoreShare = projectVerb("share.write", (ctx, channel: Channel) => setShareStatus(ctx, channel, "Enabled"));

/** Gives the share a new slug and retires the old one forever; the status is unchanged. */
export const rotateShareSlug = projectVerb("share.write", async ({ access, write }, channel: Channel) =>
  write(async (tx) => {
    const share = await lockShareOrThrow(tx, { projectId: access.project.id, channel });
    const slug = await issueSlug(tx, share.id);
    const now = new Date();
    await tx.update(shareSlugs).set({ retiredAt: now }).where(eq(shareSlugs.slug, share.slug));
    const [updated] = await tx
      .update(publicVideoShares)
      .set({ slug, updatedAt: now })
      .where(eq(publicVideoShares.id, share.id))
      .returning();
    return audited(
      { previousSlug: share.slug, slug, share: presentShare(updated!) },
      shareChange(updated!, "share.slug_rotated", { previousSlug: share.slug, slug }),
    );
  }),
);
