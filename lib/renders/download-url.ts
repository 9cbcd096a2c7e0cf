import { getConfig } from "@/lib/config";
import { signUrlSubject, verifyUrlSubject } from "@/lib/tokens/signed-url";

// A finished render is downloaded at /api/renders/{id}/download?expires=&signature= — an HMAC
// over (purpose, render id, expiry) with the first TOKEN_SECRETS entry, like preview URLs. A
// render's URL works a day; a campaign thumbnail's 30 days, because it sits in emails.

export type RenderPurpose = "render" | "thumbnail";

export const downloadTtlSeconds: Record<RenderPurpose, number> = { render: 24 * 3600, thumbnail: 30 * 24 * 3600 };

const signedPurpose = (purpose: RenderPurpose) => `render-download:${purpose}`;

export function signRenderDownload(renderId: string, purpose: RenderPurpose, now = Date.now()): { url: string; expiresAt: Date } {
  const { expires, signature } = signUrlSubject(signedPurpose(purpose), renderId, Math.floor(now / 1000) + downloadTtlSeconds[purpose]);
  return {
    url: `${getConfig().publicBaseUrl}/api/renders/${renderId}/download?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000),
  };
}

export function verifyRenderDownload(renderId: string, purpose: RenderPurpose, expires: string | null, signature: string | null, now = Date.now()): boolean {
  return verifyUrlSubject(signedPurpose(purpose), renderId, expires, signature, downloadTtlSeconds[purpose], now);
}
