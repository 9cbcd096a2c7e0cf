// Page-level fields the tracking bundle adds to the player's events (docs/design.md, Player).

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/** A lowercase UUID v4. Pages served over http (not localhost) are no secure context and lack randomUUID. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The pseudonymous viewer id: lowercase hex SHA-256 of `${projectId}:${viewerId}`, so the same
 * viewer cannot be linked across projects. Undefined where crypto.subtle is missing (no secure context).
 */
export async function hashViewer(projectId: string, viewerId: string): Promise<string | undefined> {
  if (!crypto.subtle) return undefined;
  try {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${projectId}:${viewerId}`));
    return toHex(new Uint8Array(digest));
  } catch {
    return undefined;
  }
}

/** The host name of a referrer URL, or undefined when there is none (empty, opaque or unparsable). */
export function referrerHostOf(referrer: string): string | undefined {
  try {
    return new URL(referrer).hostname || undefined;
  } catch {
    return undefined;
  }
}
