import { NotFoundError, UnauthorizedError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { verifyCredential } from "@/lib/credentials/verify-credential";
import type { Db } from "@/lib/db";
import { findProjectPublicShare } from "@/lib/shares/public-share";
import { mintEmbedSessionToken } from "@/lib/tokens/embed-session-token";
import type { EmbedSessionInput } from "./contract";

type Credential = NonNullable<Awaited<ReturnType<typeof verifyCredential>>>;

/** HTTP Basic `apiKey:apiSecret`: the caller is an active API credential, or 401. */
export async function authenticateCredential(db: Db, req: Request): Promise<Credential> {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(req.headers.get("authorization") ?? "");
  const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  const credential = colon > 0 ? await verifyCredential(db, decoded.slice(0, colon), decoded.slice(colon + 1)) : null;
  if (!credential) {
    throw new UnauthorizedError("Authenticate with an active API credential: HTTP Basic apiKey:apiSecret.", "Basic");
  }
  return credential;
}

/**
 * Mints an embed-session token for one of the credential's project's shares. The share must be
 * available now (enabled, credential active); the player checks it again when it loads.
 */
export async function createEmbedSession(db: Db, credential: Credential, input: EmbedSessionInput) {
  const share = await findProjectPublicShare(db, credential.projectId, input);
  if (!share) {
    const named = input.channel ? `an enabled ${input.channel} share` : `an enabled share with slug ${input.shareSlug}`;
    throw new NotFoundError(`This credential's project has no ${named}.`);
  }
  const { token, expiresAt } = await mintEmbedSessionToken({
    organizationId: share.organizationId,
    projectId: credential.projectId,
    credentialId: credential.id,
    channel: input.channel,
    shareSlug: input.shareSlug,
    personalizationData: input.personalizationData,
    allowedOrigins: input.allowedOrigins,
    viewerId: input.viewerId,
    ttlSeconds: input.ttlSeconds,
  });
  return { token, expiresAt, embedUrl: `${getConfig().publicBaseUrl}/embed?session=${encodeURIComponent(token)}` };
}
