"use client";

import Link from "next/link";
import { useState } from "react";
import { apiRequest, problemMessage } from "@/lib/console/api-client";
import { useNewPasswordForm } from "@/lib/console/new-password-form";

const primaryButton = "w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60";
const inputClass = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2";

/**
 * Asks for a reset link. The server answers the same for any address, so the form shows that
 * answer and nothing else: it cannot tell whether an account has the address either.
 */
export function RequestPasswordResetForm() {
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email"));
    setPending(true);
    setError(null);
    try {
      const result = await apiRequest<{ message: string }>("/api/password-resets", { method: "POST", json: { email } });
      setAnswer(result.message);
    } catch (problem) {
      setError(problemMessage(problem));
    }
    setPending(false);
  }
  if (answer) {
    return (
      <div className="space-y-4 text-sm">
        <p role="status" data-testid="reset-requested">
          {answer}
        </p>
        <Link href="/login" className="font-medium text-indigo-700 hover:underline">
          Back to sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-describedby={error ? "reset-request-error" : undefined}>
      <label className="block">
        <span className="text-sm font-medium">Email</span>
        <input name="email" type="email" required autoComplete="username" className={inputClass} />
      </label>
      {error ? (
        <p id="reset-request-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Sending…" : "Send me a reset link"}
      </button>
      <p className="text-center text-sm">
        <Link href="/login" className="text-indigo-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}

/** Chooses the new password with the link's token, then signs in with it (every older session has ended). */
export function ChooseNewPasswordForm({ token, email }: { token: string; email: string }) {
  const { error, pending, onSubmit } = useNewPasswordForm(email, (password) =>
    apiRequest("/api/password-resets/complete", { method: "POST", json: { token, password } }),
  );
  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-describedby={error ? "new-password-error" : undefined}>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <label className="block">
        <span className="text-sm font-medium">New password</span>
        <input name="password" type="password" required minLength={8} maxLength={256} autoComplete="new-password" className={inputClass} />
      </label>
      <label className="block">
        <span className="text-sm font-medium">New password again</span>
        <input name="confirm" type="password" required autoComplete="new-password" className={inputClass} />
      </label>
      {error ? (
        <p id="new-password-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Saving…" : "Set password and sign in"}
      </button>
    </form>
  );
}
