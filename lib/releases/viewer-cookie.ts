import { z } from "zod";

// The landing page's viewer cookie (docs/adr/0150-release-control.md): set by proxy.ts on a first
// visit, read where a share is served to keep a viewer's A/B variant. Apart from the assignment
// (./serve-variant.ts) so that the proxy does not load the database.

/** The landing page's first-party cookie: a random id, only for the A/B assignment. */
export const viewerCookie = "rb_viewer";
/** A year: a returning viewer sees the same variant. */
export const viewerCookieMaxAge = 365 * 24 * 60 * 60;

const cookieValue = z.uuid();

/** The viewer cookie's value from a Cookie header, when it is one this app set (a UUID). */
export function viewerCookieOf(headers: Headers): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === viewerCookie && value && cookieValue.safeParse(value).success) return value;
  }
  return null;
}

