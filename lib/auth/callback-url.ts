/** Where the console goes after sign-in when no (acceptable) callbackUrl was given. */
export const defaultCallbackPath = "/projects";

/**
 * The same-origin path (with query and fragment) a callbackUrl points to, else the default.
 * Resolved by the URL parser rather than matched by prefix: "/\evil.example" and
 * "/<tab>/evil.example" start with "/" yet the parser reads them as another host.
 */
export function safeCallbackPath(target: string | null | undefined, baseUrl: string): string {
  if (!target) return defaultCallbackPath;
  try {
    const base = new URL(baseUrl);
    const url = new URL(target, base);
    return url.origin === base.origin ? `${url.pathname}${url.search}${url.hash}` : defaultCallbackPath;
  } catch {
    return defaultCallbackPath;
  }
}
