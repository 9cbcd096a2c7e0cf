import { lookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { getConfig } from "@/lib/config";

// Webhooks make the server send requests to URLs its users choose: without a check, a project
// member could aim them at the machine's own services or the private network (SSRF). Only
// globally routable unicast addresses are allowed, unless WEBHOOK_ALLOW_PRIVATE=1 (tests, or an
// installation whose receivers live on its private network).

export type UrlCheck = { ok: true } | { ok: false; reason: string };

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
 * Why an address may not receive webhooks, or null when it may: anything but ipaddr.js's
 * "unicast" range (private, loopback, link-local, unique-local, multicast, unspecified, CGNAT,
 * reserved, documentation, 6to4, Teredo, NAT64…), and for IPv6 anything outside 2000::/3, the
 * IPv4-compatible ::/96 included. An IPv4-mapped IPv6 address is judged as its IPv4.
 */
export function refusedAddressReason(address: string): string | null {
  if (!isIpAddress(address)) return `${address} is not an IP address`;
  const parsed = parseAddress(address);
  const range = parsed.range();
  if (range !== "unicast") return `${address} is a ${describeRange(range)} address`;
  if (parsed instanceof ipaddr.IPv6) {
    if (parsed.match(ipv4Compatible)) return `${address} is an IPv4-compatible IPv6 address (::/96, deprecated)`;
    if (!parsed.match(globalUnicast)) return `${address} is outside IPv6's global unicast space (2000::/3)`;
  }
  return null;
}

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

/** The URL's host as an address or a name: IPv6 literals lose their brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * May webhooks be sent to this URL? http(s) only; the host — a literal address, or every address
 * its name resolves to — must be public unless private addresses are allowed. The WHATWG URL
 * parser has already turned the odd IPv4 spellings (`0x7f.1`, `2130706433`) into dotted form.
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
    return refused ? { ok: false, reason: `must not point at a private network: ${refused}` } : { ok: true };
  }
  if (isLocalhostSubdomain(host)) return { ok: false, reason: `must not point at a private network: ${host} is this machine (loopback)` };
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: `the host ${host} could not be resolved` };
  }
  for (const { address } of addresses) {
    const refused = refusedAddressReason(address);
    if (refused) return { ok: false, reason: `must not point at a private network: ${host} resolves to ${refused}` };
  }
  return addresses.length > 0 ? { ok: true } : { ok: false, reason: `the host ${host} could not be resolved` };
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
    if (!allowPrivate && isLocalhostSubdomain(hostname)) return refuse(`${hostname} is this machine (loopback)`);
    lookup(hostname, { all: true, verbatim: true }).then(
      (addresses) => {
        const usable = allowPrivate ? addresses : addresses.filter(({ address }) => refusedAddressReason(address) === null);
        if (!allowPrivate && usable.length < addresses.length) {
          const refused = addresses.find(({ address }) => refusedAddressReason(address) !== null)!;
          return refuse(`${hostname} resolves to ${refusedAddressReason(refused.address)}`);
        }
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: "ENOTFOUND" }), []);
        if (options.all) return callback(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
