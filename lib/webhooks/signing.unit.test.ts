import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret, sealedKid } from "./secret-box";
import { generateSigningSecret, signatureHeaders } from "./signing";

// Signatures are checked with the Standard Webhooks reference library's own verify, as a receiver would.

const body = JSON.stringify({ type: "render.completed", timestamp: "2026-01-01T00:00:00.000Z", data: { renderId: "r1" } });

describe("signatureHeaders", () => {
  it("signatureHeaders – one secret → Webhook.verify accepts the body and returns it parsed", () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders([secret], "msg_1", new Date(), body);
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it.each([
    { name: "a changed body", change: { body: body.replace("r1", "r2") } },
    { name: "another webhook-id", change: { id: "msg_2" } },
    { name: "another timestamp", change: { timestamp: 1 } },
  ])("signatureHeaders – $name → Webhook.verify refuses", ({ change }) => {
    const secret = generateSigningSecret();
    const sentAt = new Date();
    const headers = signatureHeaders([secret], "msg_1", sentAt, body);
    const tampered = {
      ...headers,
      ...(change.id ? { "webhook-id": change.id } : {}),
      ...(change.timestamp ? { "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000) + change.timestamp) } : {}),
    };
    expect(() => new Webhook(secret).verify(change.body ?? body, tampered)).toThrow(/No matching signature/);
  });

  it("signatureHeaders – another project's secret → refused", () => {
    const headers = signatureHeaders([generateSigningSecret()], "msg_1", new Date(), body);
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it("signatureHeaders – current and previous secret (after a rotation) → two signatures, each verifies alone", () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const headers = signatureHeaders([current, previous], "msg_1", new Date(), body);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });

  it("generateSigningSecret – whsec_ + 32 random bytes in base64, different each time", () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});

describe("sealSecret / openSecret", () => {
  const keys = [
    { kid: "new", secret: "n".repeat(32) },
    { kid: "old", secret: "o".repeat(32) },
  ];

  it("sealSecret – sealed under the first entry, opens for the same project, the plaintext never in it", () => {
    const sealed = sealSecret("whsec_abc", "project-1", keys);
    expect(sealedKid(sealed)).toBe("new");
    expect(sealed).not.toContain("whsec_abc");
    expect(openSecret(sealed, "project-1", keys)).toBe("whsec_abc");
  });

  it("sealSecret – twice → different ciphertexts (random IV)", () => {
    expect(sealSecret("whsec_abc", "p", keys)).not.toBe(sealSecret("whsec_abc", "p", keys));
  });

  it("openSecret – sealed under an entry that is now second → still opens", () => {
    const sealed = sealSecret("whsec_abc", "p", [keys[1]!]);
    expect(openSecret(sealed, "p", keys)).toBe("whsec_abc");
  });

  it.each([
    { name: "another project's ciphertext", open: (sealed: string) => openSecret(sealed, "project-2", keys), message: /does not decrypt/ },
    { name: "a kid no longer configured", open: (sealed: string) => openSecret(sealed, "project-1", [keys[1]!]), message: /"new", which is no longer configured/ },
    // The second-to-last character (six whole bits of the tag), changed to another one.
    { name: "a flipped byte", open: (sealed: string) => openSecret(`${sealed.slice(0, -2)}${sealed.at(-2) === "A" ? "B" : "A"}${sealed.slice(-1)}`, "project-1", keys), message: /does not decrypt/ },
    { name: "not a sealed value", open: () => openSecret("whsec_plain", "project-1", keys), message: /not in a known format/ },
  ])("openSecret – $name → SecretBoxError", ({ open, message }) => {
    const sealed = sealSecret("whsec_abc", "project-1", keys);
    expect(() => open(sealed)).toThrow(message);
  });
});
