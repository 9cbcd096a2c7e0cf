import { z } from "zod";
import { viewerHashOf } from "@/lib/analytics/viewer-hash";
import type { Channel } from "@/lib/db/schema";
import { channelSchema } from "@/lib/shares/contract";
import { allowedOriginsClaimSchema, allowedOriginsSchema } from "./origins";
import { signToken, verifyToken, type SignedToken, type TokenKind, type TokenOptions } from "./tokens";

// The embed-session token (docs/design.md, Tokens): minted by POST /api/embed-sessions for a host page,
// exchanged by the player for a page manifest. Short-lived: it only has to survive until the
// player loads; the ingest token in the manifest outlives it. Default 1 h; at most 24 h, so a
// leaked token (it travels in URLs: /embed?session=…) stops working within a day.

export const embedSessionTtlBounds = { defaultSeconds: 3600, minSeconds: 60, maxSeconds: 24 * 3600 } as const;

/**
 * The data travels inside the token, and the token in a URL; Node refuses request heads over
 * 16 KB, so the data is held to 4 KB of JSON (a share's stored data may be 16 KB).
 */
export const maxEmbedPersonalizationDataBytes = 4 * 1024;

export const embedSessionTokenKind: TokenKind = {
  typ: "embed+jwt",
  audience: "reelbind-embed",
  maxLifetimeSeconds: embedSessionTtlBounds.maxSeconds,
};

const shareSlugSchema = z.string().regex(/^[A-Za-z0-9]{1,64}$/, { error: "must be a share slug" });

const personalizationDataSchema = z
  .record(z.string(), z.unknown())
  .refine((data) => Buffer.byteLength(JSON.stringify(data)) <= maxEmbedPersonalizationDataBytes, {
    error: `must be at most ${maxEmbedPersonalizationDataBytes / 1024} KB as JSON in an embed session`,
  });

const mintEmbedSessionTokenInput = z
  .object({
    organizationId: z.uuid(),
    projectId: z.uuid(),
    /** The API credential that minted the session: the session dies with it. */
    credentialId: z.uuid(),
    channel: channelSchema.nullish(),
    shareSlug: shareSlugSchema.nullish(),
    personalizationData: personalizationDataSchema.nullish(),
    allowedOrigins: allowedOriginsSchema.nullish(),
    /** The host's own id of the viewer: only its digest with the project goes into the token (it travels in URLs). */
    viewerId: z.string().min(1).max(200).nullish(),
    ttlSeconds: z
      .number()
      .int({ error: "must be a whole number of seconds" })
      .min(embedSessionTtlBounds.minSeconds, { error: `must be at least ${embedSessionTtlBounds.minSeconds} seconds` })
      .max(embedSessionTtlBounds.maxSeconds, { error: `must be at most ${embedSessionTtlBounds.maxSeconds} seconds (24 h)` })
      .nullish(),
  })
  .refine((input) => input.channel != null || input.shareSlug != null, {
    error: "channel or shareSlug is required",
    path: ["channel"],
  });

export type MintEmbedSessionTokenInput = z.input<typeof mintEmbedSessionTokenInput>;

const embedSessionClaims = z
  .object({
    organization_id: z.uuid(),
    project_id: z.uuid(),
    // Required: a token minted before the claim existed names no credential to check (≤ 24 h).
    credential_id: z.uuid(),
    channel: channelSchema.optional(),
    share_slug: shareSlugSchema.optional(),
    personalization_data: personalizationDataSchema.optional(),
    allowed_origins: allowedOriginsClaimSchema.optional(),
    viewer_hash: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  })
  .refine((claims) => claims.channel !== undefined || claims.share_slug !== undefined, { error: "names no share" });

export type EmbedSessionClaims = {
  organizationId: string;
  projectId: string;
  /** The API credential that minted the session; the manifest checks it is still active. */
  credentialId: string;
  channel: Channel | undefined;
  shareSlug: string | undefined;
  personalizationData: Record<string, unknown> | undefined;
  /** Canonical origins; the manifest's ingest token copies them. Undefined means no restriction. */
  allowedOrigins: string[] | undefined;
  /** SHA-256 of `${projectId}:${viewerId}` when the session was minted for a viewer id (the events' viewer_hash too). */
  viewerHash: string | undefined;
  expiresAt: Date;
};

/** Mints an embed-session token. Invalid input throws a ZodError (422); a TTL outside 60 s–24 h is refused, not clamped. */
export async function mintEmbedSessionToken(input: MintEmbedSessionTokenInput, options: TokenOptions = {}): Promise<SignedToken> {
  const parsed = mintEmbedSessionTokenInput.parse(input);
  const claims = {
    organization_id: parsed.organizationId,
    project_id: parsed.projectId,
    credential_id: parsed.credentialId,
    ...(parsed.channel ? { channel: parsed.channel } : {}),
    ...(parsed.shareSlug ? { share_slug: parsed.shareSlug } : {}),
    ...(parsed.personalizationData ? { personalization_data: parsed.personalizationData } : {}),
    ...(parsed.allowedOrigins ? { allowed_origins: parsed.allowedOrigins } : {}),
    ...(parsed.viewerId ? { viewer_hash: viewerHashOf(parsed.projectId, parsed.viewerId) } : {}),
  };
  return signToken(embedSessionTokenKind, claims, parsed.ttlSeconds ?? embedSessionTtlBounds.defaultSeconds, options);
}

/** Verifies an embed-session token; throws TokenError (401) when it is expired or invalid in any way. */
export async function verifyEmbedSessionToken(token: string, options: TokenOptions = {}): Promise<EmbedSessionClaims> {
  const { claims, expiresAt } = await verifyToken(embedSessionTokenKind, token, embedSessionClaims, options);
  return {
    organizationId: claims.organization_id,
    projectId: claims.project_id,
    credentialId: claims.credential_id,
    channel: claims.channel,
    shareSlug: claims.share_slug,
    personalizationData: claims.personalization_data,
    allowedOrigins: claims.allowed_origins,
    viewerHash: claims.viewer_hash,
    expiresAt,
  };
}
