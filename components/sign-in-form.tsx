"use client";

import { getCsrfToken } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

type Props = {
  /** Where to go after signing in: a same-origin path, already checked by the login page. */
  callbackPath: string;
};

function waitText(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * Posts to next-auth's credentials callback itself rather than through signIn(), which cannot
 * tell a refused password from a 429 (it reads only the JSON body, never the status or Retry-After).
 */
export function SignInForm({ callbackPath }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const response = await fetch("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          email: String(form.get("email")),
          password: String(form.get("password")),
          csrfToken: (await getCsrfToken()) ?? "",
          callbackUrl: callbackPath,
          json: "true",
        }),
      });
      if (response.status === 429) {
        const retryAfter = Number(response.headers.get("Retry-After"));
        setError(`Too many sign-in attempts. Try again in ${waitText(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60)}.`);
        return;
      }
      const { url } = (await response.json().catch(() => ({}))) as { url?: string };
      if (!response.ok || !url || new URL(url, window.location.href).searchParams.has("error")) {
        setError("Email or password is incorrect.");
        return;
      }
    } catch {
      setError("Could not reach the server. Try again.");
      return;
    } finally {
      setPending(false);
    }
    router.replace(callbackPath);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
      <label className="block">
        <span className="text-sm font-medium">Email</span>
        <input name="email" type="email" required autoComplete="username" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
      </label>
      <label className="block">
        <span className="text-sm font-medium">Password</span>
        <input name="password" type="password" required autoComplete="current-password" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
      </label>
      {error && (
        <p id="sign-in-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending} className="w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
