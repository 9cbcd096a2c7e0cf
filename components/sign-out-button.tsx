"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/login" })} className="rounded-md px-2 py-1 hover:bg-slate-100">
      Sign out
    </button>
  );
}
