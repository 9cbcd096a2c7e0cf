import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getConfig } from "@/lib/config";

// Signing webhooks needs the signing secret itself, so it cannot be stored as a hash like API
// secrets: it is stored encrypted (AES-256-GCM) under a key derived (HKDF-SHA256) from
// TOKEN_SECRETS. TOKEN_SECRETS has key ids and a rotation procedure (docs/operations.md), so a
// ciphertext names the kid it was made with: the first entry encrypts, every entry decrypts, and
// rows made under an older entry are re-encrypted by the delivery worker (reencryptSigningSecrets).

type KeyEntry = { kid: string; secret: string };

const version = "v1";

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "reelbind", "webhook signing secret encryption v1", 32));
}

export class SecretBoxError extends Error {
  readonly code = "SECRET_BOX";
}

/** `v1:<kid>:<base64url(iv ‖ tag ‖ ciphertext)>`; `context` (the project id) is bound as associated data. */
export function sealSecret(plaintext: string, context: string, keys: KeyEntry[] = getConfig().tokenSecrets): string {
  const { kid, secret } = keys[0]!;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secret), iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${version}:${kid}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
}

/** The kid a sealed value was made with, or null when it is not one. */
export function sealedKid(sealed: string): string | null {
  const parts = sealed.split(":");
  return parts.length === 3 && parts[0] === version ? parts[1]! : null;
}

/** Opens what sealSecret made for the same context; SecretBoxError when its kid is gone from TOKEN_SECRETS or it was tampered with. */
export function openSecret(sealed: string, context: string, keys: KeyEntry[] = getConfig().tokenSecrets): string {
  const kid = sealedKid(sealed);
  if (kid === null) throw new SecretBoxError("The stored webhook signing secret is not in a known format.");
  const key = keys.find((entry) => entry.kid === kid);
  if (!key) throw new SecretBoxError(`The webhook signing secret is encrypted under TOKEN_SECRETS key "${kid}", which is no longer configured; rotate the signing secret.`);
  const box = Buffer.from(sealed.split(":")[2]!, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey(key.secret), box.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(box.subarray(12, 28));
    return Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError(`The webhook signing secret does not decrypt with TOKEN_SECRETS key "${kid}"; rotate the signing secret.`);
  }
}
