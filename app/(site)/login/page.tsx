import type { Metadata } from "next";
import Link from "next/link";
import { SignInForm } from "@/components/sign-in-form";
import { ssoRefusalMessage } from "@/components/sso-refusals";
import { SsoSignIn } from "@/components/sso-sign-in";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> };

// The callbackUrl is checked here, on the server, against PUBLIC_BASE_URL: the form only ever gets a same-origin path.
export default async function LoginPage({ searchParams }: Props) {
  const { callbackUrl, error } = await searchParams;
  const callbackPath = safeCallbackPath(Array.isArray(callbackUrl) ? callbackUrl[0] : callbackUrl, getConfig().publicBaseUrl);
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
      <h1 className="mb-6 text-2xl font-semibold">Sign in to Reelbind</h1>
      <SignInForm callbackPath={callbackPath} />
      <p className="mt-4 text-center text-sm">
        <Link href="/forgot-password" className="text-indigo-700 hover:underline">
          Forgot password?
        </Link>
      </p>
      <div className="my-6 flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <SsoSignIn callbackPath={callbackPath} refusal={ssoRefusalMessage(Array.isArray(error) ? error[0] : error)} />
    </main>
  );
}
