import type { Metadata } from "next";
import { Suspense } from "react";
import { SignInForm } from "@/components/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default function LoginPage() {
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
      <h1 className="mb-6 text-2xl font-semibold">Sign in to Reelbind</h1>
      <Suspense>
        <SignInForm />
      </Suspense>
    </main>
  );
}
