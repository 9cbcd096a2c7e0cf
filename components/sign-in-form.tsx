"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { signInWithPassword } from "@/lib/console/password-sign-in";

type Props = {
  /** Where to go after signing in: a same-origin path, already checked by the login page. */
  callbackPath: string;
};

export function SignInForm({ callbackPath }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const outcome = await signInWithPassword({ email: String(form.get("email")), password: String(form.get("password")), callbackPath });
    setPending(false);
    if (!outcome.ok) {
      setError(outcome.message);
      return;
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
