import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getServerSession } from "next-auth";
import { z } from "zod";
import { findUserByEmail } from "@/lib/accounts/accounts";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { verifyPassword } from "./secrets";

const credentialsInput = z.object({ email: z.email(), password: z.string().min(1).max(256) });

/**
 * The console signs in with email and password; the session is a JWT cookie carrying the user id.
 * Built on first use rather than at import, so that `next build` never reads configuration.
 */
export function getAuthOptions(): NextAuthOptions {
  // next-auth reads its base URL from the environment at request time.
  process.env.NEXTAUTH_URL ??= getConfig().publicBaseUrl;
  return {
  secret: getConfig().authSecret,
  session: { strategy: "jwt", maxAge: 12 * 3600 },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw) {
        const parsed = credentialsInput.safeParse(raw);
        if (!parsed.success) return null;
        const user = await findUserByEmail(await getDb(), parsed.data.email);
        if (!user?.passwordHash || !(await verifyPassword(parsed.data.password, user.passwordHash))) return null;
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ],
  callbacks: {
    session({ session, token }) {
      if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
  };
}

/** The signed-in console user, or null. */
export async function getConsoleUser(): Promise<{ id: string; email: string } | null> {
  const session = await getServerSession(getAuthOptions());
  const user = session?.user as { id?: string; email?: string | null } | undefined;
  return user?.id && user.email ? { id: user.id, email: user.email } : null;
}
