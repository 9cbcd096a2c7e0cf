import type { Metadata } from "next";
import Link from "next/link";
import { ChooseNewPasswordForm } from "@/components/password-reset/password-reset-forms";
import { findOpenPasswordReset } from "@/lib/accounts/password-resets";
import { getDb } from "@/lib/db";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false } };

type Props = { params: Promise<{ token: string }> };

// The link of a reset mail. A link that no longer works (used, expired, or never made) shows one
// message for all: the page tells nothing about which, nor about the account behind it.
export default async function ResetPasswordPage({ params }: Props) {
  const { token } = await params;
  const reset = await loadPageData(async () => findOpenPasswordReset(await getDb(), token));
  return (
    <main className="mx-4 mt-16 max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:mx-auto sm:mt-24 sm:p-8">
      <h1 className="mb-2 text-2xl font-semibold">Choose a new password</h1>
      {reset ? (
        <>
          <p className="mb-6 text-sm text-slate-600">
            For <strong>{reset.email}</strong>. Every signed-in session of the account ends when you save it.
          </p>
          <ChooseNewPasswordForm token={token} email={reset.email} />
        </>
      ) : (
        <div className="space-y-4 text-sm">
          <p role="alert" className="text-red-700">
            This link does not work any more: it was used, it expired, or it is not a reset link.
          </p>
          <Link href="/forgot-password" className="font-medium text-indigo-700 hover:underline">
            Ask for a new link
          </Link>
        </div>
      )}
    </main>
  );
}
