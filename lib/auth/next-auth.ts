import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { clientAddress } from "@/lib/client-address";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { safeCallbackPath } from "./callback-url";
import { consoleUserFromSessionToken, revokeConsoleSession, sessionCookieNames, startConsoleSession, type ConsoleSessionUser } from "./console-sessions";
import { hasTwoFactor, verifySecondFactor } from "@/lib/accounts/two-factor";
import { forgiveSignInAttempt } from "./sign-in-throttle";
import { verifySignIn } from "./sign-in";
import { mintTwoFactorChallenge, userOfTwoFactorChallenge } from "./two-factor-challenge";
import { forgiveTwoFactorAttempts } from "./two-factor-throttle";
import { twoFactorSignInErrors } from "./two-factor-sign-in-errors";

/**
 * The console signs in with email and password (and a second factor once the user has enrolled:
 * docs/adr/0156-two-factor-totp.md); the session is a JWT cookie carrying the user id, the id of
 * its console_sessions row and how the user signed in. Attempts are limited before next-auth runs
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
        // A thrown Error's message is the `error` of the answer's URL: how the form tells the steps apart.
        async authorize(credentials, req) {
          const db = await getDb();
          const fields = (credentials ?? {}) as Record<string, unknown>;
          if (fields.challenge) {
            const challenged = await userOfTwoFactorChallenge(db, fields.challenge);
            if (!challenged) throw new Error(twoFactorSignInErrors.expired);
            if (typeof fields.code !== "string" || !(await verifySecondFactor(db, challenged.id, fields.code))) throw new Error(twoFactorSignInErrors.wrongCode);
            await forgiveTwoFactorAttempts(db, challenged.id);
            return challenged;
          }
          const user = await verifySignIn(db, credentials);
          if (!user) return null;
          const headers = (req.headers ?? {}) as Record<string, string | undefined>;
          await forgiveSignInAttempt(db, { email: user.email, address: clientAddress((name) => headers[name.toLowerCase()] ?? null) });
          if (await hasTwoFactor(db, user.id)) throw new Error(`${twoFactorSignInErrors.required}${await mintTwoFactorChallenge(db, user.id)}`);
          return user;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user, account }) {
        if (user) {
          token.sid = await startConsoleSession(await getDb(), user.id);
          // Password sign-ins must meet an organization's two-factor requirement; other providers' (SSO) leave MFA to the identity provider.
          token.signInMethod = !account || account.type === "credentials" ? "password" : account.provider;
        }
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
export async function getConsoleUser(): Promise<ConsoleSessionUser | null> {
  const jar = await cookies();
  const token = sessionCookieNames.map((name) => jar.get(name)?.value).find(Boolean);
  return consoleUserFromSessionToken(await getDb(), token);
}
