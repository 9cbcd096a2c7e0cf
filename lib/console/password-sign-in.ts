import { getCsrfToken } from "next-auth/react";
import { twoFactorSignInErrors } from "@/lib/auth/two-factor-sign-in-errors";

// Signing in from the browser: posts to next-auth's credentials callback itself rather than
// through signIn(), which cannot tell a refused password from a 429 (it reads only the JSON
// body, never the status or Retry-After). The sign-in form and the invitation page use it. A
// user with two-factor gets a challenge for the password instead, and posts it back with a code
// (docs/adr/0156-two-factor-totp.md).

export type SignInOutcome = { ok: true } | { ok: false; message: string } | { ok: false; twoFactorChallenge: string };

function waitText(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export async function signInWithPassword({ email, password, callbackPath }: { email: string; password: string; callbackPath: string }): Promise<SignInOutcome> {
  return postCredentials({ email, password }, callbackPath, "Email or password is incorrect.");
}

/** The second step: the challenge the password earned and a code from the app (or a recovery code). */
export async function signInWithCode({ email, challenge, code, callbackPath }: { email: string; challenge: string; code: string; callbackPath: string }): Promise<SignInOutcome> {
  return postCredentials({ email, challenge, code }, callbackPath, "That code is not right. Try the one your app shows now.");
}

async function postCredentials(fields: Record<string, string>, callbackPath: string, refusal: string): Promise<SignInOutcome> {
  try {
    const response = await fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, csrfToken: (await getCsrfToken()) ?? "", callbackUrl: callbackPath, json: "true" }),
    });
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get("Retry-After"));
      return { ok: false, message: `Too many sign-in attempts. Try again in ${waitText(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60)}.` };
    }
    const { url } = (await response.json().catch(() => ({}))) as { url?: string };
    const error = url ? new URL(url, window.location.href).searchParams.get("error") : null;
    if (error?.startsWith(twoFactorSignInErrors.required)) return { ok: false, twoFactorChallenge: error.slice(twoFactorSignInErrors.required.length) };
    if (error === twoFactorSignInErrors.expired) return { ok: false, message: "The sign-in took too long. Start again with your password." };
    // The password was right, but an organization of the account requires single sign-on (lib/accounts/sso.ts).
    if (error === "SsoRequired") return { ok: false, message: "Your organization requires single sign-on: use “Continue with single sign-on” below." };
    if (!response.ok || !url || error) return { ok: false, message: refusal };
    return { ok: true };
  } catch {
    return { ok: false, message: "Could not reach the server. Try again." };
  }
}
