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

/**
 * Why an address may not receive webhooks, or null when it may: anything but ipaddr.js's
 * "unicast" range (private, loopback, link-local, unique-local, multicast, unspecified, CGNAT,
 * reserved, documentation, 6to4, Teredo…). An IPv4-mapped IPv6 address is judged as its IPv4.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === "unicast" ? null : `${address} is a ${describeRange(range)} address`;
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
