import { afterEach, describe, expect, it, vi } from "vitest";
import { addressKey, clientAddress, clientAddressResolver, resolveClientAddress, type PeerRequest } from "./client-address";
import type { Config } from "./config";

// The trust model for client addresses (docs/security.md): what the servers that own a socket
// work out, and what the app's routes read.

type Settings = Pick<Config, "trustedProxies" | "clientIpHeader">;

const request = (peer: string | undefined, headers: Record<string, string> = {}): PeerRequest => ({ headers, socket: { remoteAddress: peer } });
const none: Settings = { trustedProxies: [], clientIpHeader: undefined };

describe("resolveClientAddress", () => {
  it.each([
    { name: "no proxy trusted, no header", settings: none, peer: "203.0.113.9", headers: {}, address: "203.0.113.9" },
    {
      name: "no proxy trusted: a forged X-Forwarded-For is ignored",
      settings: none,
      peer: "203.0.113.9",
      headers: { "x-forwarded-for": "198.51.100.1, 10.0.0.1" },
      address: "203.0.113.9",
    },
    {
      name: "TRUSTED_PROXIES=0: the same as none",
      settings: { ...none, trustedProxies: 0 },
      peer: "203.0.113.9",
      headers: { "x-forwarded-for": "198.51.100.1" },
      address: "203.0.113.9",
    },
    {
      name: "the proxy trusted: the entry it appended",
      settings: { ...none, trustedProxies: ["10.0.0.2"] },
      peer: "10.0.0.2",
      headers: { "x-forwarded-for": "203.0.113.9" },
      address: "203.0.113.9",
    },
    {
      name: "the proxy trusted, forged entries left of it: the rightmost untrusted entry",
      settings: { ...none, trustedProxies: ["10.0.0.2"] },
      peer: "10.0.0.2",
      headers: { "x-forwarded-for": "198.51.100.1, 10.0.0.1, 203.0.113.9" },
      address: "203.0.113.9",
    },
    {
      name: "a request from an untrusted peer beside the trusted proxy: its own address",
      settings: { ...none, trustedProxies: ["10.0.0.2"] },
      peer: "10.0.0.3",
      headers: { "x-forwarded-for": "198.51.100.1" },
      address: "10.0.0.3",
    },
    {
      name: "two trusted hops (a CIDR and a name): past both",
      settings: { ...none, trustedProxies: ["10.0.0.0/8", "loopback"] },
      peer: "127.0.0.1",
      headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9, 10.1.2.3" },
      address: "203.0.113.9",
    },
    {
      name: "every hop trusted: the leftmost entry",
      settings: { ...none, trustedProxies: ["uniquelocal"] },
      peer: "10.0.0.2",
      headers: { "x-forwarded-for": "192.168.1.20, 10.0.0.1" },
      address: "192.168.1.20",
    },
    { name: "one hop trusted (a count)", settings: { ...none, trustedProxies: 1 }, peer: "10.9.9.9", headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" }, address: "203.0.113.9" },
    {
      name: "two hops trusted (a count)",
      settings: { ...none, trustedProxies: 2 },
      peer: "10.9.9.9",
      headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9, 10.0.0.7" },
      address: "203.0.113.9",
    },
    {
      name: "one hop trusted, no header: the peer",
      settings: { ...none, trustedProxies: 1 },
      peer: "203.0.113.9",
      headers: {},
      address: "203.0.113.9",
    },
    {
      name: "a trusted peer IPv4-mapped (a dual-stack socket)",
      settings: { ...none, trustedProxies: ["127.0.0.1"] },
      peer: "::ffff:127.0.0.1",
      headers: { "x-forwarded-for": "203.0.113.9" },
      address: "203.0.113.9",
    },
    { name: "an IPv4-mapped peer: as IPv4", settings: none, peer: "::ffff:203.0.113.9", headers: {}, address: "203.0.113.9" },
    { name: "an IPv6 peer: its /64", settings: none, peer: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", headers: {}, address: "2001:db8:1:2::/64" },
    {
      name: "CLIENT_IP_HEADER from a trusted peer: its address",
      settings: { trustedProxies: ["10.0.0.2"], clientIpHeader: "CF-Connecting-IP" },
      peer: "10.0.0.2",
      headers: { "cf-connecting-ip": "203.0.113.9", "x-forwarded-for": "198.51.100.1" },
      address: "203.0.113.9",
    },
    {
      name: "CLIENT_IP_HEADER from an untrusted peer: ignored",
      settings: { trustedProxies: ["10.0.0.2"], clientIpHeader: "CF-Connecting-IP" },
      peer: "203.0.113.9",
      headers: { "cf-connecting-ip": "198.51.100.1" },
      address: "203.0.113.9",
    },
    {
      name: "CLIENT_IP_HEADER that is not one address: X-Forwarded-For instead",
      settings: { trustedProxies: ["10.0.0.2"], clientIpHeader: "CF-Connecting-IP" },
      peer: "10.0.0.2",
      headers: { "cf-connecting-ip": "198.51.100.1, 198.51.100.2", "x-forwarded-for": "203.0.113.9" },
      address: "203.0.113.9",
    },
    {
      name: "a trusted hop reported no IP address: what it reported, cut short",
      settings: { ...none, trustedProxies: 1 },
      peer: "10.0.0.2",
      headers: { "x-forwarded-for": `unknown-${"x".repeat(100)}` },
      address: `unknown-${"x".repeat(56)}`,
    },
    { name: "a socket already closed (no peer)", settings: none, peer: undefined, headers: { "x-forwarded-for": "203.0.113.9" }, address: "unknown" },
  ])("$name → $address", ({ settings, peer, headers, address }) => {
    expect(resolveClientAddress(request(peer, headers as Record<string, string>), settings as Settings)).toBe(address);
  });
});

describe("clientAddressResolver", () => {
  afterEach(() => vi.restoreAllMocks());

  it("no proxy trusted → the first ignored X-Forwarded-For is logged once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const addressOf = clientAddressResolver(none);
    expect(addressOf(request("203.0.113.9"))).toBe("203.0.113.9");
    expect(warn).not.toHaveBeenCalled();
    expect(addressOf(request("203.0.113.9", { "x-forwarded-for": "198.51.100.1" }))).toBe("203.0.113.9");
    expect(addressOf(request("203.0.113.10", { "x-forwarded-for": "198.51.100.2" }))).toBe("203.0.113.10");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/from 203\.0\.113\.9 carried X-Forwarded-For, which is ignored: TRUSTED_PROXIES trusts no proxy/);
  });

  it("a proxy trusted → an untrusted peer's X-Forwarded-For is not logged (an attacker's, not a missing setting)", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(clientAddressResolver({ ...none, trustedProxies: ["10.0.0.2"] })(request("203.0.113.9", { "x-forwarded-for": "198.51.100.1" }))).toBe("203.0.113.9");
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("addressKey", () => {
  it.each([
    { address: "203.0.113.9", key: "203.0.113.9" },
    { address: " 203.0.113.9 ", key: "203.0.113.9" },
    { address: "::ffff:203.0.113.9", key: "203.0.113.9" },
    { address: "2001:DB8:0:0:1::1", key: "2001:db8::/64" },
    { address: "2001:db8:0:0:ffff::2", key: "2001:db8::/64" },
    { address: "2001:db8:0:1::1", key: "2001:db8:0:1::/64" },
    { address: "::1", key: "::/64" },
    { address: "", key: "unknown" },
  ])("$address → $key", ({ address, key }) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe("clientAddress", () => {
  const peerHeaderKey = Symbol.for("reelbind.peer-address-header");
  const published = globalThis as { [key: symbol]: unknown };
  afterEach(() => {
    delete published[peerHeaderKey];
    vi.restoreAllMocks();
  });

  // The suite's configuration trusts no proxy (testing/setup.ts sets no TRUSTED_PROXIES).
  it.each([
    { name: "the peer alone", headers: { "x-reelbind-peer-address": "::ffff:203.0.113.9" }, address: "203.0.113.9" },
    { name: "a forged X-Forwarded-For: ignored", headers: { "x-reelbind-peer-address": "203.0.113.9", "x-forwarded-for": "198.51.100.1, 10.0.0.1" }, address: "203.0.113.9" },
    { name: "X-Forwarded-For that Next filled with the peer", headers: { "x-reelbind-peer-address": "203.0.113.9", "x-forwarded-for": "203.0.113.9" }, address: "203.0.113.9" },
    { name: "no peer (a socket already closed)", headers: { "x-forwarded-for": "198.51.100.1" }, address: "unknown" },
  ])("under scripts/serve.mjs → the trust model on the peer it wrote: $name → $address", ({ headers, address }) => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    published[peerHeaderKey] = "x-reelbind-peer-address";
    const request = new Headers(headers as Record<string, string>);
    expect(clientAddress(request)).toBe(address);
    expect(clientAddress((name) => request.get(name))).toBe(address);
  });

  it.each([
    { forwardedFor: "203.0.113.9", address: "203.0.113.9" },
    { forwardedFor: "198.51.100.1, 203.0.113.9", address: "203.0.113.9" },
    { forwardedFor: "::ffff:127.0.0.1", address: "127.0.0.1" },
    { forwardedFor: null, address: "unknown" },
  ])("without it (next dev) → the rightmost X-Forwarded-For entry: $forwardedFor → $address", ({ forwardedFor, address }) => {
    const headers = new Headers(forwardedFor ? { "x-forwarded-for": forwardedFor, "x-reelbind-peer-address": "192.0.2.1" } : {});
    expect(clientAddress(headers)).toBe(address);
  });
});
