import { getCsrfToken } from "next-auth/react";

// Signing in from the browser: posts to next-auth's credentials callback itself rather than
// through signIn(), which cannot tell a refused password from a 429 (it reads only the JSON
// body, never the status or Retry-After). The sign-in form and the invitation page use it.

export type SignInOutcome = { ok: true } | { ok: false; message: string };

function waitText(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export async function signInWithPassword({ email, password, callbackPath }: { email: string; password: string; callbackPath: string }): Promise<SignInOutcome> {
  try {
    const response = await fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken: (await getCsrfToken()) ?? "", callbackUrl: callbackPath, json: "true" }),
    });
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get("Retry-After"));
      return { ok: false, message: `Too many sign-in attempts. Try again in ${waitText(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60)}.` };
    }
    const { url } = (await response.json().catch(() => ({}))) as { url?: string };
    const refusal = url ? new URL(url, window.location.href).searchParams.get("error") : null;
    // The password was right, but an organization of the account requires single sign-on (lib/accounts/sso.ts).
    if (refusal === "SsoRequired") {
      return { ok: false, message: "Your organization requires single sign-on: use “Continue with single sign-on” below." };
    }
    if (!response.ok || !url || refusal !== null) {
      return { ok: false, message: "Email or password is incorrect." };
    }
    return { ok: true };
  } catch {
    return { ok: false, message: "Could not reach the server. Try again." };
  }
}
