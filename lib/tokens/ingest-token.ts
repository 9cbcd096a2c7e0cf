import { z } from "zod";
import { getConfig } from "@/lib/config";
import { channelEnum } from "@/lib/db/schema/enums";
import { allowedOriginsClaimSchema, allowedOriginsSchema } from "./origins";
import { signToken, verifyToken, type SignedToken, type TokenKind, type TokenOptions } from "./tokens";

const channelSchema = z.enum(channelEnum.enumValues);
/** A templates.version label. */
const templateVersionSchema = z.string().regex(/^[0-9]+\.[0-9]+$/, "must be major.minor");

/** Whether a template is named by its id and its version together, or not at all. */
const bothOrNeither = (id: unknown, version: unknown) => (id == null) === (version == null);

// The analytics ingest token (spec §5 items 5–6, docs/design.md, Tokens): minted into the page manifest,
// presented as `Authorization: Bearer` on every ingest POST.

export const ingestTokenTtlBounds = { minSeconds: 15 * 60, maxSeconds: 48 * 3600 } as const;

export const ingestTokenKind: TokenKind = {
  typ: "ingest+jwt",
  audience: "reelbind-ingest",
  maxLifetimeSeconds: ingestTokenTtlBounds.maxSeconds,
};

const mintIngestTokenInput = z.object({
  organizationId: z.uuid(),
  projectId: z.uuid(),
  shareId: z.uuid().nullish(),
  /** The share's channel: enrichment stores it with every event, for the dashboards' channel filter. */
  channel: channelSchema.nullish(),
  allowedOrigins: allowedOriginsSchema.nullish(),
  ttlSeconds: z.number().nullish(),
  /** The template the page serves: enrichment stores it with every event, whatever the events claim. */
  templateId: z.uuid().nullish(),
  templateVersion: templateVersionSchema.nullish(),
}).refine((input) => bothOrNeither(input.templateId, input.templateVersion), { message: "templateId and templateVersion go together", path: ["templateId"] });

export type MintIngestTokenInput = z.input<typeof mintIngestTokenInput>;

const ingestClaims = z.object({
  organization_id: z.uuid(),
  project_id: z.uuid(),
  share_id: z.uuid().optional(),
  channel: channelSchema.optional(),
  allowed_origins: allowedOriginsClaimSchema.optional(),
  template_id: z.uuid().optional(),
  template_version: templateVersionSchema.optional(),
}).refine((claims) => bothOrNeither(claims.template_id, claims.template_version), { message: "template_id and template_version go together", path: ["template_id"] });

export type IngestTokenClaims = {
  organizationId: string;
  projectId: string;
  shareId: string | undefined;
  channel: z.infer<typeof channelSchema> | undefined;
  /** Canonical origins; undefined means any origin may post. */
  allowedOrigins: string[] | undefined;
  /** The template the page was served; both undefined in tokens minted before tokens carried it. */
  templateId: string | undefined;
  templateVersion: string | undefined;
  expiresAt: Date;
};

/** The TTL asked for (or INGEST_TOKEN_TTL), whole seconds, clamped to 15 min–48 h as the spec allows. */
function ingestTtlSeconds(requested: number | null | undefined): number {
  const ttl = Math.round(requested ?? getConfig().ingestTokenTtlSeconds);
  return Math.min(ingestTokenTtlBounds.maxSeconds, Math.max(ingestTokenTtlBounds.minSeconds, ttl));
}

/** Mints an ingest token. Invalid input (ids, origins) throws a ZodError, i.e. 422. */
export async function mintIngestToken(input: MintIngestTokenInput, options: TokenOptions = {}): Promise<SignedToken> {
  const { organizationId, projectId, shareId, channel, allowedOrigins, ttlSeconds, templateId, templateVersion } = mintIngestTokenInput.parse(input);
  const claims = {
    organization_id: organizationId,
    project_id: projectId,
    ...(shareId ? { share_id: shareId } : {}),
    ...(channel ? { channel } : {}),
    ...(allowedOrigins ? { allowed_origins: allowedOrigins } : {}),
    ...(templateId && templateVersion ? { template_id: templateId, template_version: templateVersion } : {}),
  };
  return signToken(ingestTokenKind, claims, ingestTtlSeconds(ttlSeconds), options);
}

/** Verifies an ingest token; throws TokenError (401) when it is expired or invalid in any way. */
export async function verifyIngestToken(token: string, options: TokenOptions = {}): Promise<IngestTokenClaims> {
  const { claims, expiresAt } = await verifyToken(ingestTokenKind, token, ingestClaims, options);
  return {
    organizationId: claims.organization_id,
    projectId: claims.project_id,
    shareId: claims.share_id,
    channel: claims.channel,
    allowedOrigins: claims.allowed_origins,
    templateId: claims.template_id,
    templateVersion: claims.template_version,
    expiresAt,
  };
}
