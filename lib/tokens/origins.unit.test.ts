import { describe, expect, it } from "vitest";
import { allowedOriginsSchema, isOriginAllowed, normalizeOrigin } from "./origins";

describe("normalizeOrigin", () => {
  it.each([
    ["https://example.com", "https://example.com"],
    ["https://Example.COM", "https://example.com"],
    ["HTTPS://example.com", "https://example.com"],
    ["https://example.com/", "https://example.com"],
    ["https://example.com:443", "https://example.com"],
    ["http://example.com:80", "http://example.com"],
    ["http://example.com:443", "http://example.com:443"],
    ["https://example.com:8443", "https://example.com:8443"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["http://[::1]:3000", "http://[::1]:3000"],
    ["https://bücher.example", "https://xn--bcher-kva.example"],
  ])("normalizeOrigin(%j) → %j", (value, expected) => {
    expect(normalizeOrigin(value)).toBe(expected);
  });

  it.each([
    ["empty", ""],
    ["opaque origin", "null"],
    ["no scheme", "example.com"],
    ["scheme without slashes", "https:example.com"],
    ["not http(s)", "ftp://example.com"],
    ["javascript:", "javascript:alert(1)"],
    ["a path", "https://example.com/app"],
    ["a query", "https://example.com?x=1"],
    ["a fragment", "https://example.com#x"],
    ["credentials", "https://user:pass@example.com"],
    ["a wildcard", "https://*.example.com"],
    ["an empty label", "https://a..example.com"],
    ["a leading space", " https://example.com"],
    ["a backslash", "https://example.com\\"],
    ["port out of range", "https://example.com:70000"],
  ])("normalizeOrigin – %s → null", (_case, value) => {
    expect(normalizeOrigin(value)).toBeNull();
  });
});

describe("isOriginAllowed", () => {
  const allowed = ["https://allowed.com"];

  it.each([
    ["no list → any origin", "https://anything.example", undefined, true],
    ["no list (null) → missing Origin too", null, null, true],
    ["exact match", "https://allowed.com", allowed, true],
    ["host in another case", "https://ALLOWED.com", allowed, true],
    ["explicit default port", "https://allowed.com:443", allowed, true],
    ["allowed entry with a default port", "https://allowed.com", ["https://allowed.com:443"], true],
    ["allowed entry with a trailing slash", "https://allowed.com", ["https://allowed.com/"], true],
    ["second entry of several", "http://localhost:3000", ["https://allowed.com", "http://localhost:3000"], true],
    ["missing Origin with a list", null, allowed, false],
    ["undefined Origin with a list", undefined, allowed, false],
    ["missing Origin, list holding an invalid entry", null, ["https://allowed.com/app"], false],
    ['opaque Origin "null"', "null", allowed, false],
    ["empty list", "https://allowed.com", [], false],
    ["different scheme", "http://allowed.com", allowed, false],
    ["different port", "https://allowed.com:8443", allowed, false],
    ["port on the allowed entry only", "https://allowed.com", ["https://allowed.com:8443"], false],
    ["subdomain-suffix attack", "https://allowed.com.evil.com", allowed, false],
    ["subdomain of an allowed host", "https://www.allowed.com", allowed, false],
    ["allowed host as a suffix", "https://evilallowed.com", allowed, false],
    ["credentials smuggling the allowed host", "https://allowed.com@evil.com", allowed, false],
    ["allowed entry with a path (refused entry, matches nothing)", "https://allowed.com", ["https://allowed.com/app"], false],
    ["garbage Origin", "allowed.com", allowed, false],
  ])("isOriginAllowed – %s", (_case, origin, list, expected) => {
    expect(isOriginAllowed(origin, list)).toBe(expected);
  });
});

describe("allowedOriginsSchema", () => {
  it("allowedOriginsSchema – mixed forms → canonical and deduplicated, order kept", () => {
    expect(allowedOriginsSchema.parse(["https://B.example/", "http://a.example:80", "https://b.example:443"])).toEqual([
      "https://b.example",
      "http://a.example",
    ]);
  });

  it("allowedOriginsSchema – an invalid entry → the issue names its index", () => {
    const result = allowedOriginsSchema.safeParse(["https://ok.example", "https://bad.example/path"]);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([[1]]);
  });
});
