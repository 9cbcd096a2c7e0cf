import { describe, expect, it } from "vitest";
import { generatePersonalAccessToken, hashPassword, randomBase62, safeEqual, sha256Hex, verifyPassword } from "./secrets";

const base62Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("hashPassword / verifyPassword", () => {
  const password = "correct horse battery staple";
  const hashed = hashPassword(password);

  it("hashPassword – scrypt$N$r$p$salt$hash with a 16-byte salt and a 32-byte hash", async () => {
    expect(await hashed).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  });

  it("hashPassword – the same password twice → different salts and hashes", async () => {
    const again = await hashPassword(password);
    expect(again).not.toBe(await hashed);
    expect(again.split("$")[4]).not.toBe((await hashed).split("$")[4]);
    expect(await verifyPassword(password, again)).toBe(true);
  });

  it("verifyPassword – the right password → true", async () => {
    expect(await verifyPassword(password, await hashed)).toBe(true);
  });

  it.each([
    { name: "another password", attempt: "correct horse battery stapler" },
    { name: "different case", attempt: "Correct horse battery staple" },
    { name: "empty", attempt: "" },
  ])("verifyPassword – $name → false", async ({ attempt }) => {
    expect(await verifyPassword(attempt, await hashed)).toBe(false);
  });

  /** Replaces one $-separated part of the stored hash. */
  function tamper(stored: string, index: number, replace: (part: string) => string): string {
    const parts = stored.split("$");
    parts[index] = replace(parts[index]!);
    return parts.join("$");
  }

  const flipFirstChar = (part: string) => (part[0] === "A" ? "B" : "A") + part.slice(1);

  it.each([
    { name: "one character of the hash changed", tampered: (s: string) => tamper(s, 5, flipFirstChar) },
    { name: "one character of the salt changed", tampered: (s: string) => tamper(s, 4, flipFirstChar) },
    { name: "N lowered to 8192", tampered: (s: string) => tamper(s, 1, () => "8192") },
    { name: "p raised to 2", tampered: (s: string) => tamper(s, 3, () => "2") },
    { name: "scheme renamed", tampered: (s: string) => tamper(s, 0, () => "bcrypt") },
    { name: "hash part missing", tampered: (s: string) => s.split("$").slice(0, 5).join("$") },
    { name: "empty string", tampered: () => "" },
    { name: "plain text password", tampered: () => password },
    { name: "an empty hash (would compare two empty buffers)", tampered: (s: string) => tamper(s, 5, () => "A") },
    { name: "a truncated hash", tampered: (s: string) => tamper(s, 5, (h) => h.slice(0, 20)) },
    { name: "N not a number", tampered: (s: string) => tamper(s, 1, () => "abc") },
    { name: "N not a power of two", tampered: (s: string) => tamper(s, 1, () => "3") },
    { name: "an extra part", tampered: (s: string) => `${s}$extra` },
  ])("verifyPassword – stored hash with $name → false", async ({ tampered }) => {
    expect(await verifyPassword(password, tampered(await hashed))).toBe(false);
  });

  it("verifyPassword – a hash made with a raised cost (N = 2^16) still verifies", async () => {
    const { scrypt } = await import("node:crypto");
    const salt = Buffer.from("0123456789abcdef");
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt(password, salt, 32, { N: 65536, r: 8, p: 1, maxmem: 256 * 65536 * 8 }, (error, derived) => (error ? reject(error) : resolve(derived))),
    );
    const stored = ["scrypt", 65536, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    expect(await verifyPassword(password, stored)).toBe(true);
  });
});

describe("generatePersonalAccessToken", () => {
  it("generatePersonalAccessToken – rbk_ and 32 base64url characters (192 bits)", () => {
    expect(generatePersonalAccessToken()).toMatch(/^rbk_[A-Za-z0-9_-]{32}$/);
  });

  it("generatePersonalAccessToken – 1000 tokens → all different", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generatePersonalAccessToken()));
    expect(tokens.size).toBe(1000);
  });
});

describe("randomBase62", () => {
  it.each([0, 1, 24, 40, 100])("randomBase62 – length %i → exactly that many base62 characters", (length) => {
    expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });

  it("randomBase62 – 20 000 characters → every one of the 62 symbols appears, nothing else", () => {
    const used = new Set(randomBase62(20_000));
    expect([...used].sort().join("")).toBe([...base62Alphabet].sort().join(""));
  });

  it("randomBase62 – two 24-character strings → different", () => {
    expect(randomBase62(24)).not.toBe(randomBase62(24));
  });
});

describe("sha256Hex / safeEqual", () => {
  it("sha256Hex – 'abc' → the FIPS 180-2 test vector", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it.each([
    { a: "sk_same", b: "sk_same", equal: true },
    { a: "sk_same", b: "sk_samf", equal: false },
    { a: "sk_same", b: "sk_sam", equal: false },
    { a: "", b: "", equal: true },
  ])("safeEqual – '$a' vs '$b' → $equal", ({ a, b, equal }) => {
    expect(safeEqual(a, b)).toBe(equal);
  });
});
