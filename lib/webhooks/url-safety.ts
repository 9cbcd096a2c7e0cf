import { lookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { getConfig } from "@/lib/config";

// Webhooks make the server send requests to URLs its users choose: without a check, a project
// member could aim them at the machine's own services or the private network (SSRF). Only
// globally routable unicast addresses are allowed, unless WEBHOOK_ALLOW_PRIVATE=1 (tests, or an
// installation whose receivers live on its private network).

/**
 * A URL that may be saved, with a warning when its host could not be resolved now (an offline
 * host, a DNS failure): the private-address check then happens at each delivery, on the
 * addresses the connection uses. A refusal says why in a sentence for the URL field.
 */
export type UrlCheck = { ok: true; warning?: string } | { ok: false; reason: string };

type CheckOptions = { allowPrivate?: boolean };

const allowPrivateByDefault = () => getConfig().webhookAllowPrivate;

/** IPv6 outside the global unicast space (RFC 4291 §2.4) is never a webhook receiver on the internet. */
const globalUnicast = ipaddr.IPv6.parseCIDR("2000::/3");
/** IPv4-compatible IPv6 (`::a.b.c.d`, RFC 4291 §2.5.5.1, deprecated), which ipaddr.js calls unicast. */
const ipv4Compatible = ipaddr.IPv6.parseCIDR("::/96");

/**
 * The address as ipaddr.js should see it. IPv6 text is first written out by the WHATWG URL
 * parser: ipaddr.js reads the deprecated `::a.b.c.d` as if it were `::ffff:a.b.c.d`, and
 * resolvers print IPv4-compatible answers in that form. An IPv4-mapped address becomes its IPv4.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const canonical = address.includes(":") ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
  const parsed = ipaddr.parse(canonical);
  return parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
}

/** A literal IP address (IPv4 dotted, IPv6 without brackets), as the URL parser and resolvers write them. */
function isIpAddress(value: string): boolean {
  return ipaddr.isValid(value) && (!value.includes(":") || URL.canParse(`http://[${value}]/`));
}

/**
 * What kind of address may not receive webhooks ("a loopback address"), or null when it may:
 * anything but ipaddr.js's "unicast" range (private, loopback, link-local, unique-local,
 * multicast, unspecified, CGNAT, reserved, documentation, 6to4, Teredo, NAT64…), and for IPv6
 * anything outside 2000::/3, the IPv4-compatible ::/96 included. An IPv4-mapped IPv6 address is
 * judged as its IPv4.
 */
export function refusedAddressKind(address: string): string | null {
  if (!isIpAddress(address)) return "not an IP address";
  const parsed = parseAddress(address);
  const range = parsed.range();
  if (range !== "unicast") return `a ${describeRange(range)} address`;
  if (parsed instanceof ipaddr.IPv6) {
    if (parsed.match(ipv4Compatible)) return "an IPv4-compatible IPv6 address (::/96, deprecated)";
    if (!parsed.match(globalUnicast)) return "an address outside IPv6's global unicast space (2000::/3)";
  }
  return null;
}

/** `127.0.0.1 is a loopback address`, or null when the address may receive webhooks. */
export function refusedAddressReason(address: string): string | null {
  const kind = refusedAddressKind(address);
  return kind ? `${address} is ${kind}` : null;
}

/** What a refusal adds to the fact, for a webhook URL. */
export const publicAddressesOnly = "webhooks must reach a public address";

/** `localhost resolves to 127.0.0.1, a loopback address`. */
const resolvesToRefused = (host: string, address: string, kind: string) => `${host} resolves to ${address}, ${kind}`;

const localhostSubdomainFact = (host: string) => `${host} is this machine (a subdomain of localhost is always loopback)`;

const rangeNames: Record<string, string> = {
  private: "private",
  loopback: "loopback",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  carrierGradeNat: "shared (carrier-grade NAT)",
  reserved: "reserved",
};

function describeRange(range: string): string {
  return rangeNames[range] ?? `special-purpose (${range})`;
}

/**
 * Subdomains of `localhost` are loopback by definition (RFC 6761) though a resolver may not
 * know them; `localhost` itself is resolved like any name (the hosts file answers loopback).
 */
function isLocalhostSubdomain(hostname: string): boolean {
  return hostname.toLowerCase().replace(/\.$/, "").endsWith(".localhost");
}

const isLocalhostName = (hostname: string) => hostname.toLowerCase().replace(/\.$/, "") === "localhost";

/** The URL's host as an address or a name: IPv6 literals lose their brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** How long a save waits for DNS before it saves with a warning instead (the resolver has no cancel). */
const saveLookupTimeoutMs = 5_000;

/** The host's addresses, or why they could not be had (NXDOMAIN, a DNS failure, no answer in time). */
async function resolveForSave(host: string): Promise<LookupAddress[] | { failed: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<{ failed: string }>((resolve) => {
    timer = setTimeout(() => resolve({ failed: `no answer from DNS within ${saveLookupTimeoutMs / 1000} s` }), saveLookupTimeoutMs);
  });
  const looked = lookup(host, { all: true, verbatim: true }).then(
    (addresses) => (addresses.length > 0 ? addresses : { failed: "no address, ENODATA" }),
    (error: NodeJS.ErrnoException) => ({ failed: error.code === "ENOTFOUND" ? "no such host, ENOTFOUND" : `DNS failure, ${error.code ?? error.message}` }),
  );
  try {
    return await Promise.race([looked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * May webhooks be sent to this URL? http(s) only; the host — a literal address, or every address
 * its name resolves to — must be public unless private addresses are allowed. A name that does
 * not resolve now is accepted with a warning: an offline host or a DNS hiccup at save time says
 * nothing about where it will point, and every delivery checks the addresses it connects to. The
 * WHATWG URL parser has already turned the odd IPv4 spellings (`0x7f.1`, `2130706433`) into dotted form.
 */
export async function checkWebhookUrl(value: string, { allowPrivate = allowPrivateByDefault() }: CheckOptions = {}): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "must be an http:// or https:// URL" };
  if (allowPrivate) return { ok: true };
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const refused = refusedAddressReason(host);
    return refused ? { ok: false, reason: `${refused}: ${publicAddressesOnly}` } : { ok: true };
  }
  if (isLocalhostSubdomain(host)) return { ok: false, reason: `${localhostSubdomainFact(host)}: ${publicAddressesOnly}` };
  const addresses = await resolveForSave(host);
  // `localhost.` is loopback by definition too, though the hosts file answers only `localhost`.
  if ("failed" in addresses && isLocalhostName(host)) return { ok: false, reason: `${host} is this machine (localhost is always loopback): ${publicAddressesOnly}` };
  if ("failed" in addresses) {
    return { ok: true, warning: `${host} could not be resolved now (${addresses.failed}); the URL is saved, and each delivery resolves it again and is refused if it points at a private address` };
  }
  for (const { address } of addresses) {
    const kind = refusedAddressKind(address);
    if (kind) return { ok: false, reason: `${resolvesToRefused(host, address, kind)}: ${publicAddressesOnly}` };
  }
  return { ok: true };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) that resolves the name once and refuses private answers: the
 * connection then goes to exactly the address that was checked, so a name whose DNS changes
 * between the check and the connection (DNS rebinding) cannot reach a private address. Literal
 * IP hosts never reach a lookup; deliver() checks them with checkWebhookUrl first.
 */
export function publicOnlyLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    const refuse = (reason: string) => callback(Object.assign(new Error(reason), { code: "EWEBHOOKADDRESS" }), []);
    if (!allowPrivate && isLocalhostSubdomain(hostname)) return refuse(localhostSubdomainFact(hostname));
    lookup(hostname, { all: true, verbatim: true }).then(
      (addresses) => {
        const usable = allowPrivate ? addresses : addresses.filter(({ address }) => refusedAddressReason(address) === null);
        if (!allowPrivate && usable.length < addresses.length) {
          const refused = addresses.find(({ address }) => refusedAddressKind(address) !== null)!;
          return refuse(resolvesToRefused(hostname, refused.address, refusedAddressKind(refused.address)!));
        }
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: "ENOTFOUND" }), []);
        if (options.all) return callback(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
