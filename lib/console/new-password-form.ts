import { useRouter } from "next/navigation";
import { useState } from "react";
import { problemMessage } from "@/lib/console/api-client";
import { signInWithPassword } from "@/lib/console/password-sign-in";

/**
 * A form that chooses a password (accepting an invitation, finishing a reset): the two entries
 * must agree, `save` sends it, and the person is then signed in with it and taken to the console
 * (or to sign-in, should that fail). The form's fields are named `password` and `confirm`.
 */
export function useNewPasswordForm(email: string, save: (password: string) => Promise<unknown>) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password"));
    if (password !== String(form.get("confirm"))) {
      setError("The two passwords differ.");
      return;
    }
    setPending(true);
    setError(null);
    try {
      await save(password);
    } catch (problem) {
      setError(problemMessage(problem));
      setPending(false);
      return;
    }
    const signedIn = await signInWithPassword({ email, password, callbackPath: "/projects" });
    router.replace(signedIn.ok ? "/projects" : "/login");
    router.refresh();
  }
  return { error, pending, onSubmit: (event: React.FormEvent<HTMLFormElement>) => void onSubmit(event) };
}
