import { z } from "zod";

// Origins as a browser sends them in the Origin header: scheme://host[:port], nothing else.

/** Keeps tokens small enough for a URL (`?session=…`) and an Authorization header. */
export const maxAllowedOrigins = 10;

/** http(s), a host, an optional port and at most a trailing slash: no credentials, path, query or fragment. */
const originShape = /^https?:\/\/[^\s/?#@\\]+\/?$/i;
/** After URL parsing: DNS labels (no empty label, no wildcard) or a bracketed IPv6 address. */
const hostShape = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)$/;

/**
 * The canonical form of an origin (lowercase scheme and host, punycode, default port dropped,
 * no trailing slash), or null when the value is not an http(s) origin. A path is refused
 * rather than cut off, so a mistyped allowed origin is reported instead of silently widened.
 */
export function normalizeOrigin(value: string): string | null {
  if (typeof value !== "string" || !originShape.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (!hostShape.test(url.hostname)) return null;
  return url.origin;
}

/**
 * Whether a request's Origin header is in the allowed list. No list means no restriction;
 * with a list, a missing or opaque ("null") Origin is refused. Exact match after normalization,
 * so another scheme, another port or a longer host (`allowed.com.evil.com`) never matches.
 */
export function isOriginAllowed(origin: string | null | undefined, allowed: readonly string[] | null | undefined): boolean {
  if (allowed == null) return true;
  const normalized = origin == null ? null : normalizeOrigin(origin);
  if (normalized === null) return false;
  return allowed.some((entry) => normalizeOrigin(entry) === normalized);
}

const originMessage = "must be an origin: http(s)://host[:port], without path, query or credentials";

/** An allowed-origins list from a caller: normalized, deduplicated, 1 to maxAllowedOrigins entries. */
export const allowedOriginsSchema = z
  .array(
    z.string().transform((value, ctx) => {
      const origin = normalizeOrigin(value);
      if (origin === null) {
        ctx.addIssue({ code: "custom", message: originMessage });
        return z.NEVER;
      }
      return origin;
    }),
  )
  .min(1, { error: "must list at least one origin (leave it out for no restriction)" })
  .max(maxAllowedOrigins, { error: `must list at most ${maxAllowedOrigins} origins` })
  .transform((origins) => [...new Set(origins)]);

/** An allowed-origins claim read back from a token: already canonical, or the token is refused. */
export const allowedOriginsClaimSchema = z
  .array(z.string().refine((value) => normalizeOrigin(value) === value, { error: originMessage }))
  .min(1)
  .max(maxAllowedOrigins);
