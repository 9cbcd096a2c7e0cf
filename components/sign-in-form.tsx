"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { signInWithCode, signInWithPassword, type SignInOutcome } from "@/lib/console/password-sign-in";

type Props = {
  /** Where to go after signing in: a same-origin path, already checked by the login page. */
  callbackPath: string;
};

const inputClass = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2";

/** Email and password; then, for a user with two-factor, a code (the password is not asked again: the challenge it earned stands for it). */
export function SignInForm({ callbackPath }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [challenge, setChallenge] = useState<{ email: string; challenge: string } | null>(null);

  async function finish(outcome: SignInOutcome, email: string) {
    setPending(false);
    if ("twoFactorChallenge" in outcome) {
      setChallenge({ email, challenge: outcome.twoFactorChallenge });
      return;
    }
    if (!outcome.ok) {
      setError(outcome.message);
      return;
    }
    router.replace(callbackPath);
    router.refresh();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    if (challenge) {
      await finish(await signInWithCode({ ...challenge, code: String(form.get("code")), callbackPath }), challenge.email);
      return;
    }
    const email = String(form.get("email"));
    await finish(await signInWithPassword({ email, password: String(form.get("password")), callbackPath }), email);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
      {challenge ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            Signing in as <strong className="break-all text-slate-900">{challenge.email}</strong>.
          </p>
          <label className="block">
            <span className="text-sm font-medium">Authentication code</span>
            <input
              key="code"
              name="code"
              required
              autoFocus
              autoComplete="one-time-code"
              inputMode="text"
              spellCheck={false}
              aria-describedby="code-hint"
              className={`${inputClass} font-mono tracking-widest`}
            />
            <span id="code-hint" className="mt-1 block text-xs text-slate-500">
              The 6-digit code from your authenticator app, or one of your recovery codes.
            </span>
          </label>
        </div>
      ) : (
        <>
          <label className="block">
            <span className="text-sm font-medium">Email</span>
            <input name="email" type="email" required autoComplete="username" className={inputClass} />
          </label>
          <label className="block">
            <span className="text-sm font-medium">Password</span>
            <input name="password" type="password" required autoComplete="current-password" className={inputClass} />
          </label>
        </>
      )}
      {error && (
        <p id="sign-in-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending} className="w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
        {pending ? (challenge ? "Checking…" : "Signing in…") : challenge ? "Verify" : "Sign in"}
      </button>
      {challenge ? (
        <button
          type="button"
          className="w-full text-sm text-indigo-700 underline"
          onClick={() => {
            setChallenge(null);
            setError(null);
          }}
        >
          Start over
        </button>
      ) : null}
    </form>
  );
}
