/**
 * True when every percent-escape of a URL path decodes to UTF-8. Next decodes route parameters
 * with decodeURIComponent and answers a bare 500 when that throws (a truncated "%E0%A4%A", an
 * overlong "%C0%AF"), so proxy.ts asks this first.
 */
export function isWellEncodedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
