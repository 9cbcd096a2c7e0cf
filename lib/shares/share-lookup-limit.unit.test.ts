import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { chargeShareMiss, shareLookupRefusal, tooManyLookupsPage } from "./share-lookup-limit";

// SHARE_MISS_RATE's default (60 a minute, a minute's worth at once); each test has addresses of its own.
const burst = 60;
const slug = "UnknownSlug00000000000";

describe("share lookup limit", () => {
  // The limiter's clock (performance.now()) stands still: nothing refills between the misses.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
  });

  it("chargeShareMiss – the 60th miss of an address uses it up: shareLookupRefusal → 429 with Retry-After 1; other addresses go on", () => {
    const address = randomUUID();
    for (let i = 0; i < burst; i++) {
      expect(shareLookupRefusal(address), `before miss ${i + 1}`).toBeNull();
      chargeShareMiss(slug, address);
    }
    const refusal = shareLookupRefusal(address);
    expect(refusal).toMatchObject({ kind: "too_many_requests", code: "too_many_requests", hints: { retryAfterSeconds: 1 } });
    expect(shareLookupRefusal(randomUUID())).toBeNull();
  });

  it("chargeShareMiss – a malformed slug was never looked up: it costs nothing", () => {
    const address = randomUUID();
    for (let i = 0; i < burst * 2; i++) chargeShareMiss("not a slug!", address);
    expect(shareLookupRefusal(address)).toBeNull();
  });

  it("tooManyLookupsPage – 429 HTML with Retry-After, no script allowed", async () => {
    const address = randomUUID();
    for (let i = 0; i < burst; i++) chargeShareMiss(slug, address);
    const page = tooManyLookupsPage(shareLookupRefusal(address)!);
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toBe("1");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'none';/);
    expect(await page.text()).toContain("Try again in 1 second.");
  });
});
