import { describe, expect, it } from "vitest";
import { generateRecoveryCodes, generateTotpSecret, hashRecoveryCode, looksLikeRecoveryCode, matchTotpStep, totpCodeAt, totpStep, totpUri } from "./totp";

// RFC 6238 appendix B's SHA-1 secret ("12345678901234567890") in base32, and its published codes (last 6 digits).
const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const at = (seconds: number) => new Date(seconds * 1000);

describe("totpCodeAt – RFC 6238 test vectors", () => {
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1234567890, "005924"],
    [2000000000, "279037"],
  ])("at %i s → %s", (seconds, code) => {
    expect(totpCodeAt(rfcSecret, at(seconds))).toBe(code);
  });
});

describe("matchTotpStep – window and replay, with a fixed clock", () => {
  const now = at(1_800_000_015);
  const step = totpStep(now);
  const codeOf = (offset: number) => totpCodeAt(rfcSecret, at(1_800_000_015 + offset * 30));

  it.each([
    ["the current step", 0, step],
    ["one step behind (a slow phone)", -1, step - 1],
    ["one step ahead", 1, step + 1],
  ])("%s → accepted as its own step", (_, offset, expected) => {
    expect(matchTotpStep(rfcSecret, codeOf(offset), now, null)).toBe(expected);
  });

  it.each([
    ["two steps behind", -2],
    ["two steps ahead", 2],
  ])("%s → refused (outside ±1)", (_, offset) => {
    expect(matchTotpStep(rfcSecret, codeOf(offset), now, null)).toBeNull();
  });

  it("the code of the last used step → refused (replay); a newer step's → accepted", () => {
    expect(matchTotpStep(rfcSecret, codeOf(0), now, step)).toBeNull();
    expect(matchTotpStep(rfcSecret, codeOf(-1), now, step)).toBeNull();
    expect(matchTotpStep(rfcSecret, codeOf(1), now, step)).toBe(step + 1);
  });

  it.each(["", "12345", "1234567", "abcdef", "12 34 5x"])("malformed code %j → refused", (code) => {
    expect(matchTotpStep(rfcSecret, code, now, null)).toBeNull();
  });

  it("a code with spaces (as apps show it) → accepted", () => {
    const code = codeOf(0);
    expect(matchTotpStep(rfcSecret, `${code.slice(0, 3)} ${code.slice(3)}`, now, null)).toBe(step);
  });
});

describe("secrets, URIs and recovery codes", () => {
  it("generateTotpSecret → 160 bits of base32, different each time", () => {
    const a = generateTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpSecret()).not.toBe(a);
  });

  it("totpUri → otpauth://totp with issuer, SHA1, 6 digits, 30 s", () => {
    const uri = new URL(totpUri(rfcSecret, "ann@example.com"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(rfcSecret);
    expect(uri.searchParams.get("issuer")).toBe("Reelbind");
    expect(uri.searchParams.get("algorithm")).toBe("SHA1");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
    expect(decodeURIComponent(uri.pathname)).toContain("ann@example.com");
  });

  it("generateRecoveryCodes → 10 distinct xxxxx-xxxxx codes; the hash ignores case, spaces and hyphens", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/);
      expect(looksLikeRecoveryCode(code)).toBe(true);
      expect(hashRecoveryCode(` ${code.toUpperCase().replace("-", " ")} `)).toBe(hashRecoveryCode(code));
    }
    expect(looksLikeRecoveryCode("123456")).toBe(false);
  });
});
