import { randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { sha256Hex } from "./secrets";

// TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps
// (docs/adr/0156-two-factor-totp.md). Pure functions of the secret and a clock given as a
// parameter, so tests step time instead of waiting for it; the database keeps the last step used.

export const totpPeriodSeconds = 30;
export const totpDigits = 6;
/** Codes of one step before and after the server's are accepted: a phone clock off by up to 30 s, a code typed as it turns. */
export const totpWindow = 1;
const issuer = "Reelbind";

/** A new secret: 160 random bits (RFC 4226's recommended length), as base32 for the otpauth:// URI and manual entry. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, accountName = "") {
  return new TOTP({ issuer, label: accountName, algorithm: "SHA1", digits: totpDigits, period: totpPeriodSeconds, secret: Secret.fromBase32(secretBase32) });
}

/** The otpauth://totp/… URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, accountName: string): string {
  return totpOf(secretBase32, accountName).toString();
}

/** The time step (RFC 6238's T) of an instant. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / totpPeriodSeconds);
}

/** The code of the step `now` falls in (tests compute codes with it, as an authenticator app does). */
export function totpCodeAt(secretBase32: string, now: Date): string {
  return totpOf(secretBase32).generate({ timestamp: now.getTime() });
}

/**
 * The time step whose code `code` is, within ±totpWindow steps of `now`, and newer than
 * `lastUsedStep`; null when it is none of them. A code of the last used step or an earlier one is
 * refused: whoever saw it typed cannot use it again (RFC 6238 §5.2).
 */
export function matchTotpStep(secretBase32: string, code: string, now: Date, lastUsedStep: number | null): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: now.getTime(), window: totpWindow });
  if (delta === null) return null;
  const step = totpStep(now) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? null : step;
}

// Recovery codes: 10 groups of 5+5 characters from an alphabet without look-alikes (no 0/o, 1/l/i):
// 31^10 ≈ 2^49.5 each, typed by hand from paper, hashed with SHA-256 like tokens (too random to guess offline).
const recoveryAlphabet = "23456789abcdefghjkmnpqrstuvwxyz";
export const recoveryCodeCount = 10;

export function generateRecoveryCodes(count = recoveryCodeCount): string[] {
  return Array.from({ length: count }, () => {
    let raw = "";
    for (let i = 0; i < 10; i++) raw += recoveryAlphabet[randomInt(recoveryAlphabet.length)];
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** The form a recovery code is hashed in: case, spaces and the hyphen do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, "");
}

export function hashRecoveryCode(code: string): string {
  return sha256Hex(`reelbind-recovery-code\n${normalizeRecoveryCode(code)}`);
}

/** Whether what was typed looks like a recovery code rather than a TOTP code. */
export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{10}$/.test(normalizeRecoveryCode(code));
}
