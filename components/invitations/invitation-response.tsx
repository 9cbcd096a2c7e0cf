"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { SignOutButton } from "@/components/sign-out-button";
import { apiRequest, problemMessage } from "@/lib/console/api-client";
import { useNewPasswordForm } from "@/lib/console/new-password-form";

type Props = { token: string; invitedEmail: string; signedInEmail: string | null };

const primaryButton = "w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60";

/**
 * What the holder of an accept URL can do: the invited user, signed in, accepts; someone signed
 * in as another address is told so; anyone else signs in to accept, or chooses a password when
 * the address has no account yet (the server refuses that for an address that has one).
 */
export function InvitationResponse({ token, invitedEmail, signedInEmail }: Props) {
  if (signedInEmail && signedInEmail.toLowerCase() === invitedEmail) return <AcceptButton token={token} />;
  if (signedInEmail) {
    return (
      <div className="space-y-3 text-sm">
        <p>
          You are signed in as <strong>{signedInEmail}</strong>. Sign out, then open this link again and sign in as <strong>{invitedEmail}</strong>.
        </p>
        <SignOutButton />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <section className="space-y-2" aria-labelledby="have-account">
        <h2 id="have-account" className="font-semibold">
          Have an account for {invitedEmail}?
        </h2>
        <Link href={`/login?callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`} className={`block text-center ${primaryButton}`}>
          Sign in to accept
        </Link>
      </section>
      <CreateAccountForm token={token} email={invitedEmail} />
    </div>
  );
}

function AcceptButton({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function accept() {
    setPending(true);
    setError(null);
    try {
      await apiRequest("/api/invitations/accept", { method: "POST", json: { token } });
      router.replace("/projects");
      router.refresh();
    } catch (problem) {
      setError(problemMessage(problem));
      setPending(false);
    }
  }
  return (
    <div className="space-y-2">
      <button type="button" className={primaryButton} disabled={pending} onClick={() => void accept()}>
        {pending ? "Accepting…" : "Accept invitation"}
      </button>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CreateAccountForm({ token, email }: { token: string; email: string }) {
  const { error, pending, onSubmit } = useNewPasswordForm(email, (password) =>
    apiRequest("/api/invitations/create-account", { method: "POST", json: { token, password } }),
  );
  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-labelledby="new-account" aria-describedby={error ? "create-account-error" : undefined}>
      <h2 id="new-account" className="font-semibold">
        New to Reelbind? Choose a password
      </h2>
      <label className="block">
        <span className="text-sm font-medium">Password</span>
        <input name="password" type="password" required minLength={8} maxLength={256} autoComplete="new-password" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
      </label>
      <label className="block">
        <span className="text-sm font-medium">Password again</span>
        <input name="confirm" type="password" required autoComplete="new-password" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
      </label>
      {error ? (
        <p id="create-account-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Creating your account…" : "Create account and accept"}
      </button>
    </form>
  );
}
