import type { IncomingHttpHeaders } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { getConfig, trustsNoProxy, type Config } from "@/lib/config";
import { processWide } from "@/lib/process-wide";

// Client addresses: the trust model (docs/security.md). The per-address limits (sign-in, unknown
// share links, ingest) key on the address the nearest untrusted hop reported: the socket's peer
// unless TRUSTED_PROXIES trusts it, then the rightmost X-Forwarded-For entry not trusted either
// (proxy-addr, as Express reads it). A client cannot forge it: whatever it writes into the header
// is left of what the proxies it passed appended. The peer is what only the server owning the
// socket knows: scripts/serve.mjs hands it to the app in a header of its own (written over
// whatever the client sent there), scripts/ingest-server.ts reads its own socket.

/** A request's headers, or a function reading one of them. */
type HeaderSource = { get(name: string): string | null } | ((name: string) => string | null);

/** What the address is worked out from: a node:http request's headers and its socket's peer. */
export type PeerRequest = { headers: IncomingHttpHeaders; socket: { remoteAddress?: string } };

/** Under this Symbol.for name scripts/serve.mjs publishes the header it writes each request's peer in. */
const peerHeaderKey = Symbol.for("reelbind.peer-address-header");

/** Longest key a value that is not an IP address (a misconfigured proxy's) is cut to. */
const maxKeyLength = 64;

/**
 * The key a per-address limit counts `address` under: an IPv4 address as such (also when it
 * comes IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address by its /64 (one subscriber's network: a
 * client holding one has 2⁶⁴ addresses to rotate through). Anything else as it is, cut short.
 */
export function addressKey(address: string): string {
  const text = address.trim();
  if (!ipaddr.isValid(text)) return text.slice(0, maxKeyLength) || "unknown";
  const ip = ipaddr.process(text);
  if (ip.kind() === "ipv4") return ip.toString();
  const network = (ip as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(network).toString()}/64`;
}

/** The process's resolver (one, so that its log line is printed once per process). */
const appResolver = () => processWide("client-address-resolver", () => clientAddressResolver(getConfig()));

/**
 * The client's address (addressKey's form) for the limits on what a stranger can repeat, read
 * off a request's headers. Under scripts/serve.mjs, the trust model applied to the peer the
 * server wrote and the proxies' headers. Without it (next dev; route handlers called in tests)
 * the rightmost X-Forwarded-For entry: Next writes the socket's peer there when the request has
 * none. A client reaching such a server directly can set it: production runs under
 * scripts/serve.mjs (npm start).
 */
export function clientAddress(headers: HeaderSource): string {
  const read = typeof headers === "function" ? headers : (name: string) => headers.get(name);
  const peerHeader = (globalThis as { [key: symbol]: unknown })[peerHeaderKey];
  if (typeof peerHeader !== "string") {
    const last = read("x-forwarded-for")?.split(",").at(-1)?.trim();
    return last ? addressKey(last) : "unknown";
  }
  const peer = read(peerHeader) ?? undefined;
  // Next writes the peer into X-Forwarded-For when the request has none: that is no proxy's word.
  const forwardedFor = read("x-forwarded-for") ?? undefined;
  const ipHeader = getConfig().clientIpHeader?.toLowerCase();
  const request: PeerRequest = {
    headers: { "x-forwarded-for": forwardedFor === peer ? undefined : forwardedFor, ...(ipHeader ? { [ipHeader]: read(ipHeader) ?? undefined } : {}) },
    socket: { remoteAddress: peer },
  };
  return appResolver()(request);
}

/** Whom TRUSTED_PROXIES trusts, as proxy-addr asks it: the address of hop `i` (0, the socket's peer; then X-Forwarded-For from the right). */
export function compileTrust(trusted: Config["trustedProxies"]): (address: string, i: number) => boolean {
  if (typeof trusted === "number") return (_address, i) => i < trusted;
  return trusted.length > 0 ? proxyaddr.compile(trusted) : () => false;
}

type ResolverSettings = Pick<Config, "trustedProxies" | "clientIpHeader">;

/**
 * The client address of `req` under `settings` (addressKey's form): the address the nearest
 * untrusted hop reported. CLIENT_IP_HEADER (a single address, such as CF-Connecting-IP) is read
 * only from a trusted peer, and only when it holds one IP address. `onIgnoredForwardedFor` hears
 * of an X-Forwarded-For that was ignored because no proxy at all is trusted.
 */
export function resolveClientAddress(req: PeerRequest, settings: ResolverSettings, trust = compileTrust(settings.trustedProxies), onIgnoredForwardedFor?: (peer: string) => void): string {
  const peer = req.socket.remoteAddress;
  if (!peer) return "unknown";
  const peerTrusted = trust(peer, 0);
  if (peerTrusted && settings.clientIpHeader) {
    const reported = req.headers[settings.clientIpHeader.toLowerCase()];
    if (typeof reported === "string" && ipaddr.isValid(reported.trim())) return addressKey(reported);
  }
  if (!peerTrusted && req.headers["x-forwarded-for"] !== undefined) onIgnoredForwardedFor?.(peer);
  // proxy-addr reads only the headers and socket.remoteAddress of the request.
  return addressKey(proxyaddr(req as Parameters<typeof proxyaddr>[0], trust));
}

/**
 * resolveClientAddress with one configuration (the process's by default), its trust compiled
 * once. The first X-Forwarded-For it ignores while no proxy is trusted is logged: behind a proxy
 * left out of TRUSTED_PROXIES, every client would share the proxy's address.
 */
export function clientAddressResolver(config: ResolverSettings = getConfig()): (req: PeerRequest) => string {
  const trust = compileTrust(config.trustedProxies);
  let warned = !trustsNoProxy(config);
  const warnOnce = (peer: string) => {
    if (warned) return;
    warned = true;
    console.warn(
      `A request from ${peer} carried X-Forwarded-For, which is ignored: TRUSTED_PROXIES trusts no proxy. If the app is behind a ` +
        "reverse proxy, set TRUSTED_PROXIES (docs/operations.md); until then every client behind it counts as the proxy's address.",
    );
  };
  return (req) => resolveClientAddress(req, config, trust, warnOnce);
}
