"use client";

import { getCsrfToken } from "next-auth/react";
import { useState } from "react";

type Props = {
  /** Where to go after signing in: a same-origin path, already checked by the login page. */
  callbackPath: string;
  /** Why the last single sign-on was refused (the login page's ?error=), in words. */
  refusal: string | null;
};

/**
 * "Continue with single sign-on" (no "Sign in" in its name: the password form's button keeps that
 * name to itself): the address finds its organization by domain (POST
 * /api/sso/lookup), then next-auth's sign-in of that organization's provider answers where the
 * browser goes: the identity provider (authorization code with PKCE, state and nonce), or back
 * to /login?error=… when the provider is unavailable.
 */
export function SsoSignIn({ callbackPath, refusal }: Props) {
  const [open, setOpen] = useState(refusal !== null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setPending(true);
    setError(null);
    try {
      const response = await fetch("/api/sso/lookup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email }) });
      const body = (await response.json().catch(() => ({}))) as { providerId?: string; detail?: string };
      if (!response.ok || !body.providerId) {
        setError(body.detail ?? "Single sign-on could not be started. Try again.");
        setPending(false);
        return;
      }
      // As next-auth/react's signIn() does, minus its provider list (which names only the password
      // provider): json=true answers the provider's authorization URL (and sets the state, PKCE and
      // nonce cookies) instead of a redirect, which the page's CSP form-action 'self' would block.
      const started = await fetch(`/api/auth/signin/${encodeURIComponent(body.providerId)}?${new URLSearchParams({ login_hint: email })}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: (await getCsrfToken()) ?? "", callbackUrl: callbackPath, json: "true" }),
      });
      const { url } = (await started.json().catch(() => ({}))) as { url?: string };
      if (!started.ok || !url) {
        setError("Single sign-on could not be started. Try again.");
        setPending(false);
        return;
      }
      window.location.assign(url);
    } catch {
      setError("Could not reach the server. Try again.");
      setPending(false);
    }
  }

  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="w-full rounded-md bg-white px-4 py-2 font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
      >
        Continue with single sign-on
      </button>
    );
  }
  const shown = error ?? refusal;
  return (
    <section aria-labelledby="sso-heading" className="space-y-3">
      <h2 id="sso-heading" className="text-base font-semibold">
        Single sign-on
      </h2>
      <form onSubmit={onSubmit} className="space-y-3" aria-describedby={shown ? "sso-error" : undefined}>
        <label className="block">
          <span className="text-sm font-medium">Work e-mail</span>
          <input name="email" type="email" required autoComplete="username" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
        </label>
        {shown && (
          <p id="sso-error" role="alert" className="text-sm text-red-700">
            {shown}
          </p>
        )}
        <button type="submit" disabled={pending} className="w-full rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-900 disabled:opacity-60">
          {pending ? "Redirecting…" : "Go to your identity provider"}
        </button>
      </form>
    </section>
  );
}
