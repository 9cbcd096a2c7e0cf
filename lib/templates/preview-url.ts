import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";

/** Preview URLs work for 15 minutes: long enough to look, short enough not to be shared around. */
export const previewUrlTtlSeconds = 15 * 60;

const previewNamePattern = /^[0-9a-f]{64}$/;

function sign(secret: string, name: string, expires: number): string {
  return createHmac("sha256", secret).update(`preview:${name}:${expires}`).digest("base64url");
}

/** A URL the app serves without a bearer token: the HMAC and the expiry are the authorization. */
export function signPreviewUrl(name: string, now = Date.now()): { url: string; expiresAt: Date } {
  const expires = Math.floor(now / 1000) + previewUrlTtlSeconds;
  const { publicBaseUrl, tokenSecrets } = getConfig();
  const signature = sign(tokenSecrets[0]!.secret, name, expires);
  return {
    url: `${publicBaseUrl}/api/previews/${name}.png?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000),
  };
}

/** True when the name is well-formed, the URL has not expired, and any configured secret signed it. */
export function verifyPreviewUrl(name: string, expires: string | null, signature: string | null, now = Date.now()): boolean {
  if (!previewNamePattern.test(name) || !expires || !/^\d{1,12}$/.test(expires) || !signature) return false;
  const expiresAt = Number(expires);
  if (expiresAt * 1000 < now || expiresAt * 1000 > now + previewUrlTtlSeconds * 1000 + 60_000) return false;
  return getConfig().tokenSecrets.some(({ secret }) => safeEqual(sign(secret, name, expiresAt), signature));
}
