import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";

// URLs the app serves without a bearer token (preview PNGs, template files for the player):
// an HMAC over (purpose, subject, expiry) with the first TOKEN_SECRETS entry is the
// authorization; every configured secret verifies, so rotating secrets keeps URLs working.

export type UrlSignature = { expires: number; signature: string };

function sign(secret: string, purpose: string, subject: string, expires: number): string {
  return createHmac("sha256", secret).update(`${purpose}:${subject}:${expires}`).digest("base64url");
}

/** Signs `subject` for `purpose` until `expires` (Unix seconds). */
export function signUrlSubject(purpose: string, subject: string, expires: number): UrlSignature {
  return { expires, signature: sign(getConfig().tokenSecrets[0]!.secret, purpose, subject, expires) };
}

/**
 * True when expires is a Unix time in the future but no further than maxTtlSeconds (plus a
 * minute of clock skew) from now, and a configured secret signed (purpose, subject, expires).
 */
export function verifyUrlSubject(
  purpose: string,
  subject: string,
  expires: string | null,
  signature: string | null,
  maxTtlSeconds: number,
  now = Date.now(),
): boolean {
  if (!expires || !/^\d{1,12}$/.test(expires) || !signature) return false;
  const expiresAt = Number(expires);
  if (expiresAt * 1000 < now || expiresAt * 1000 > now + maxTtlSeconds * 1000 + 60_000) return false;
  return getConfig().tokenSecrets.some(({ secret }) => safeEqual(sign(secret, purpose, subject, expiresAt), signature));
}
