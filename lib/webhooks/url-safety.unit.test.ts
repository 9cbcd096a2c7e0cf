import { describe, expect, it } from "vitest";
import { checkWebhookUrl, publicOnlyLookup, refusedAddressReason } from "./url-safety";

// Literal addresses need no network; names go through the machine's real resolver, where the
// hosts file answers `localhost` with loopback addresses.

describe("refusedAddressReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::a00:1", "special-purpose"],
    ["64:ff9b:1::a9fe:a9fe", "special-purpose"],
    // IPv4-compatible IPv6 (::/96): whatever IPv4 it embeds, public ones included.
    ["::a9fe:a9fe", "IPv4-compatible"],
    ["::7f00:1", "IPv4-compatible"],
    ["::a00:1", "IPv4-compatible"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["::169.254.169.254", "IPv4-compatible"],
    ["::10.0.0.1", "IPv4-compatible"],
    ["::8.8.8.8", "IPv4-compatible"],
    ["::808:808", "IPv4-compatible"],
    ["0:0:0:0:0:0:a9fe:a9fe", "IPv4-compatible"],
    // The rest of IPv6 outside 2000::/3, and special ranges inside it.
    ["::ffff:0:7f00:1", "special-purpose"],
    ["100::1", "special-purpose"],
    ["fec0::1", "special-purpose"],
    ["4000::1", "outside IPv6's global unicast space"],
    ["1::1", "outside IPv6's global unicast space"],
    ["::1:0:0:0", "outside IPv6's global unicast space"],
    ["2001:db8::1", "reserved"],
    ["2002:7f00:1::", "special-purpose (6to4)"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "special-purpose (teredo)"],
    ["5f00::1", "special-purpose"],
    // IPv4 special-purpose ranges beyond RFC 1918.
    ["192.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["fe80::1%eth0", "not an IP address"],
    ["example.com", "not an IP address"],
  ])("refusedAddressReason – %s → refused as %s", (address, range) => {
    expect(refusedAddressReason(address)).toContain(range);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:93.184.216.34", "::ffff:5db8:d822"])("refusedAddressReason – %s → allowed", (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});

describe("checkWebhookUrl", () => {
  it.each([
    ["http://127.0.0.1:8080/hook", "127.0.0.1 is a loopback address"],
    ["http://[::1]/hook", "::1 is a loopback address"],
    ["https://[::ffff:127.0.0.1]/hook", "loopback"],
    ["http://0x7f.1/hook", "127.0.0.1 is a loopback address"],
    ["http://2130706433/hook", "127.0.0.1 is a loopback address"],
    ["http://0177.0.0.1/hook", "127.0.0.1 is a loopback address"],
    ["http://169.254.169.254/latest/meta-data", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[fd00::5]/", "unique-local"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://localhost:3000/hook", "localhost resolves to"],
    ["http://LOCALHOST./hook", "localhost."],
    ["http://api.localhost/hook", "api.localhost is this machine (a subdomain of localhost is always loopback): webhooks must reach a public address"],
    ["http://[::169.254.169.254]/latest/meta-data", "::a9fe:a9fe is an IPv4-compatible IPv6 address"],
    ["http://[::127.0.0.1]:8080/hook", "::7f00:1 is an IPv4-compatible IPv6 address"],
    ["http://[::10.0.0.1]/hook", "::a00:1 is an IPv4-compatible IPv6 address"],
    ["http://[::a9fe:a9fe]/hook", "::a9fe:a9fe is an IPv4-compatible IPv6 address"],
    ["http://[::ffff:0:127.0.0.1]/hook", "special-purpose"],
    ["http://[0:0:0:0:0:ffff:a9fe:a9fe]/hook", "link-local"],
  ])("checkWebhookUrl – %s → refused (%s)", async (url, reason) => {
    const check = await checkWebhookUrl(url, { allowPrivate: false });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toContain(reason);
  });

  it.each([
    ["ftp://example.com/hook", "must be an http:// or https:// URL"],
    ["javascript:alert(1)", "must be an http:// or https:// URL"],
    ["not a url", "must be an absolute URL"],
  ])("checkWebhookUrl – %s → refused (%s), even with private addresses allowed", async (url, reason) => {
    expect(await checkWebhookUrl(url, { allowPrivate: true })).toEqual({ ok: false, reason });
  });

  it.each(["https://93.184.216.34/hook", "http://[2606:4700:4700::1111]:8443/hook"])("checkWebhookUrl – literal public address %s → ok without any lookup", async (url) => {
    expect(await checkWebhookUrl(url, { allowPrivate: false })).toEqual({ ok: true });
  });

  it("checkWebhookUrl – a name resolving to loopback (localhost, from the hosts file) → refused in one sentence naming the address and its kind", async () => {
    const check = await checkWebhookUrl("http://localhost/hook", { allowPrivate: false });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address: webhooks must reach a public address$/);
  });

  it("checkWebhookUrl – a literal private address → refused in one sentence", async () => {
    expect(await checkWebhookUrl("http://127.0.0.1:8080/hook", { allowPrivate: false })).toEqual({ ok: false, reason: "127.0.0.1 is a loopback address: webhooks must reach a public address" });
  });

  // `.invalid` never resolves (RFC 2606, RFC 6761 §6.4): the machine's real resolver answers NXDOMAIN, no internet needed.
  it.each(["http://no-such-host.invalid/hook", "https://hooks.example.invalid:8443/reelbind"])("checkWebhookUrl – %s (does not resolve) → ok, with a warning naming the host and why", async (url) => {
    const host = new URL(url).hostname;
    const check = await checkWebhookUrl(url, { allowPrivate: false });
    expect(check).toEqual({ ok: true, warning: expect.stringContaining(`${host} could not be resolved now (`) });
    expect(check.ok && check.warning).toMatch(/each delivery resolves it again and is refused if it points at a private address$/);
  });

  it("checkWebhookUrl – a public address → ok without a warning", async () => {
    expect(await checkWebhookUrl("https://93.184.216.34/hook", { allowPrivate: false })).toEqual({ ok: true });
  });

  it("checkWebhookUrl – WEBHOOK_ALLOW_PRIVATE → loopback allowed", async () => {
    expect(await checkWebhookUrl("http://127.0.0.1:9/hook", { allowPrivate: true })).toEqual({ ok: true });
  });
});

describe("publicOnlyLookup", () => {
  const resolve = (hostname: string, allowPrivate: boolean, all = false) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      publicOnlyLookup(allowPrivate)(hostname, { all }, (error, address) => done({ error, address })),
    );

  it("publicOnlyLookup – a subdomain of localhost → EWEBHOOKADDRESS before any DNS", async () => {
    const { error } = await resolve("hooks.localhost", false);
    expect(error?.code).toBe("EWEBHOOKADDRESS");
  });

  it("publicOnlyLookup – a name answering a loopback address (localhost) → EWEBHOOKADDRESS naming it", async () => {
    const { error } = await resolve("localhost", false);
    expect(error?.code).toBe("EWEBHOOKADDRESS");
    expect(error?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  it("publicOnlyLookup – a name that does not resolve → the resolver's ENOTFOUND, not a refusal (the delivery is retried)", async () => {
    const { error } = await resolve("no-such-host.invalid", false);
    expect(error?.code).toBe("ENOTFOUND");
  });

  it("publicOnlyLookup – private allowed → the addresses, in the shape `all` asks for", async () => {
    expect((await resolve("localhost", true)).address).toEqual(expect.any(String));
    expect((await resolve("localhost", true, true)).address).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });
});
