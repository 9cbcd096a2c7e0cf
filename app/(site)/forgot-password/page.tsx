import type { Metadata } from "next";
import Link from "next/link";
import { RequestPasswordResetForm } from "@/components/password-reset/password-reset-forms";
import { mailConfigured } from "@/lib/mail";

export const metadata: Metadata = { title: "Forgot password" };

// Reached from "Forgot password?" on /login. Without mail the instance cannot send a link: the
// page says to ask an administrator (the CLI's `user set-password`) instead of offering a form
// whose link would only reach the server log.
export default function ForgotPasswordPage() {
  const mail = mailConfigured();
  return (
    <main className="mx-4 mt-16 max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:mx-auto sm:mt-24 sm:p-8">
      <h1 className="mb-2 text-2xl font-semibold">Forgot your password?</h1>
      {mail ? (
        <>
          <p className="mb-6 text-sm text-slate-600">Enter the address you sign in with. If it has an account, we mail it a link to choose a new password.</p>
          <RequestPasswordResetForm />
        </>
      ) : (
        <div className="space-y-4 text-sm">
          <p data-testid="no-mail">
            This instance does not send mail, so it cannot send you a reset link. Ask an administrator of your organization to set a new password for you.
          </p>
          <Link href="/login" className="font-medium text-indigo-700 hover:underline">
            Back to sign in
          </Link>
        </div>
      )}
    </main>
  );
}
