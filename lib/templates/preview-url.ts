import { getConfig } from "@/lib/config";
import { signUrlSubject, verifyUrlSubject } from "@/lib/tokens/signed-url";

/** Preview URLs work for 15 minutes: long enough to look, short enough not to be shared around. */
export const previewUrlTtlSeconds = 15 * 60;

/** A preview is named by the SHA-256 of its PNG, its key in the blob store. */
const previewNamePattern = /^[0-9a-f]{64}$/;

/** A URL the app serves without a bearer token: the HMAC and the expiry are the authorization. */
export function signPreviewUrl(name: string, now = Date.now()): { url: string; expiresAt: Date } {
  const { expires, signature } = signUrlSubject("preview", name, Math.floor(now / 1000) + previewUrlTtlSeconds);
  return {
    url: `${getConfig().publicBaseUrl}/api/previews/${name}.png?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000),
  };
}

/** True when the name is well-formed, the URL has not expired, and any configured secret signed it. */
export function verifyPreviewUrl(name: string, expires: string | null, signature: string | null, now = Date.now()): boolean {
  return previewNamePattern.test(name) && verifyUrlSubject("preview", name, expires, signature, previewUrlTtlSeconds, now);
}
