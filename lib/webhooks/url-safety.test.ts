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
  ])("refusedAddressReason – %s → refused as %s", (address, range) => {
    expect(refusedAddressReason(address)).toContain(range);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"])("refusedAddressReason – %s → allowed", (address) => {
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
    ["http://api.localhost/hook", "api.localhost is this machine"],
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

  it("checkWebhookUrl – a name resolving to loopback (localhost, from the hosts file) → refused, naming the address", async () => {
    const check = await checkWebhookUrl("http://localhost/hook", { allowPrivate: false });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(/^must not point at a private network: localhost resolves to (127\.0\.0\.1|::1) is a loopback address$/);
  });

  it("checkWebhookUrl – a name that does not resolve → refused, saying so", async () => {
    expect(await checkWebhookUrl("http://no-such-host.invalid/hook", { allowPrivate: false })).toEqual({ ok: false, reason: "the host no-such-host.invalid could not be resolved" });
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
    expect(error?.message).toMatch(/loopback/);
  });

  it("publicOnlyLookup – private allowed → the addresses, in the shape `all` asks for", async () => {
    expect((await resolve("localhost", true)).address).toEqual(expect.any(String));
    expect((await resolve("localhost", true, true)).address).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });
});
