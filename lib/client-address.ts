import { getConfig } from "@/lib/config";

/** A request's headers, or a function reading one of them. */
type HeaderSource = { get(name: string): string | null } | ((name: string) => string | null);

/**
 * The client's address as the proxy in front of the app reports it in CLIENT_IP_HEADER
 * (default X-Forwarded-For; its first entry, the original client), for limits on what a
 * stranger can repeat. "unknown" when the header is missing: such requests share one bucket.
 */
export function clientAddress(headers: HeaderSource): string {
  const name = getConfig().clientIpHeader;
  const value = typeof headers === "function" ? headers(name) : headers.get(name);
  const first = value?.split(",")[0]?.trim();
  return first ? first.slice(0, 64) : "unknown";
}
