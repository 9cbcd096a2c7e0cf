import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { clientAddress } from "@/lib/client-address";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { safeCallbackPath } from "./callback-url";
import { consoleUserFromSessionToken, revokeConsoleSession, sessionCookieNames, startConsoleSession, type ConsoleUser } from "./console-sessions";
import { forgiveSignInAttempt } from "./sign-in-throttle";
import { verifySignIn } from "./sign-in";

/**
 * The console signs in with email and password; the session is a JWT cookie carrying the user
 * id and the id of its console_sessions row. Attempts are limited before next-auth runs
 * (app/api/auth/[...nextauth]/route.ts). Built on first use rather than at import, so that
 * `next build` never reads configuration.
 */
export function getAuthOptions(): NextAuthOptions {
  const { publicBaseUrl, authSecret } = getConfig();
  // next-auth reads its base URL from the environment at request time.
  process.env.NEXTAUTH_URL ??= publicBaseUrl;
  return {
    secret: authSecret,
    session: { strategy: "jwt", maxAge: 12 * 3600 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const db = await getDb();
          const user = await verifySignIn(db, credentials);
          if (!user) return null;
          const headers = (req.headers ?? {}) as Record<string, string | undefined>;
          await forgiveSignInAttempt(db, { email: user.email, address: clientAddress((name) => headers[name.toLowerCase()] ?? null) });
          return { ...user, userAgent: headers["user-agent"] ?? null };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) token.sid = await startConsoleSession(await getDb(), user.id, { userAgent: (user as { userAgent?: string | null }).userAgent });
        return token;
      },
      session({ session, token }) {
        if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
        return session;
      },
      // next-auth's own check accepts "/\evil.example"; only our origin is a place to go back to.
      redirect({ url }) {
        return new URL(safeCallbackPath(url, publicBaseUrl), publicBaseUrl).href;
      },
    },
    events: {
      async signOut({ token }) {
        await revokeConsoleSession(await getDb(), token?.sid);
      },
    },
  };
}

/** The signed-in console user of a live session (not signed out, revoked or disabled), or null. */
export async function getConsoleUser(): Promise<ConsoleUser | null> {
  const jar = await cookies();
  const token = sessionCookieNames.map((name) => jar.get(name)?.value).find(Boolean);
  return consoleUserFromSessionToken(await getDb(), token);
}
