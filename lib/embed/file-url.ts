import { getConfig } from "@/lib/config";
import { signUrlSubject, verifyUrlSubject } from "@/lib/tokens/signed-url";

// Template files (Lottie JSON, MP4, poster, assets) as the player fetches them. A file URL is
// signed for about a day and only appears in the page manifest of a share that serves it, so
// a file id alone (it shows in the management API) never opens a file. The expiry is rounded
// up to the hour: within an hour every manifest names the same URL, and browsers and CDNs
// cache it (the content behind a file id never changes).

const hourSeconds = 3600;
export const fileUrlTtlSeconds = 25 * hourSeconds;

export function signFileUrl(file: { id: string; name: string }, now = Date.now()): string {
  const expires = Math.ceil((now / 1000 + 24 * hourSeconds) / hourSeconds) * hourSeconds;
  const { signature } = signUrlSubject("file", file.id, expires);
  return `${getConfig().publicBaseUrl}/api/embed/files/${file.id}/${encodeURIComponent(file.name)}?expires=${expires}&signature=${signature}`;
}

export function verifyFileUrl(fileId: string, expires: string | null, signature: string | null, now = Date.now()): boolean {
  return verifyUrlSubject("file", fileId, expires, signature, fileUrlTtlSeconds, now);
}
