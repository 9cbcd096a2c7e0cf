import { getConfig } from "@/lib/config";

/**
 * The client's address as the proxy in front of the app reports it in CLIENT_IP_HEADER
 * (default X-Forwarded-For; its first entry, the original client), for limits on what a
 * stranger can repeat. "unknown" when the header is missing: such requests share one bucket.
 */
export function clientAddress(header: (name: string) => string | null): string {
  const value = header(getConfig().clientIpHeader);
  const first = value?.split(",")[0]?.trim();
  return first ? first.slice(0, 64) : "unknown";
}
