import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { Provider } from "next-auth/providers/index";
import { resolveSsoSignIn, ssoProviderPrefix, ssoRequiredFor } from "@/lib/accounts/sso";
import { cookies, headers } from "next/headers";
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
 * `next build` never reads configuration. `extraProviders`: the organization's single sign-on
 * provider of an /api/auth/{signin,callback}/sso-<org id> request (lib/auth/sso-provider.ts).
 */
export function getAuthOptions(extraProviders: Provider[] = []): NextAuthOptions {
  const { publicBaseUrl, authSecret } = getConfig();
  // next-auth reads its base URL from the environment at request time.
  process.env.NEXTAUTH_URL ??= publicBaseUrl;
  return {
    secret: authSecret,
    session: { strategy: "jwt", maxAge: 12 * 3600 },
    // Refusals (a password refused by "require SSO", an ID token that does not verify) land on the login page, which says why.
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        // A thrown Error's message is the `error` of the answer's URL: how the form tells the steps apart.
        async authorize(credentials, req) {
          const db = await getDb();
          const requestHeaders = (req.headers ?? {}) as Record<string, string | undefined>;
          const userAgent = requestHeaders["user-agent"] ?? null;
          const fields = (credentials ?? {}) as Record<string, unknown>;
          if (fields.challenge) {
            const challenged = await userOfTwoFactorChallenge(db, fields.challenge);
            if (!challenged) throw new Error(twoFactorSignInErrors.expired);
            if (typeof fields.code !== "string" || !(await verifySecondFactor(db, challenged.id, fields.code))) throw new Error(twoFactorSignInErrors.wrongCode);
            await forgiveTwoFactorAttempts(db, challenged.id);
            return { ...challenged, userAgent };
          }
          const user = await verifySignIn(db, credentials);
          if (!user) return null;
          // After the password check, so only someone who knows it learns that SSO is required.
          if (await ssoRequiredFor(db, user.id)) throw new Error("SsoRequired");
          await forgiveSignInAttempt(db, { email: user.email, address: clientAddress((name) => requestHeaders[name.toLowerCase()] ?? null) });
          if (await hasTwoFactor(db, user.id)) throw new Error(`${twoFactorSignInErrors.required}${await mintTwoFactorChallenge(db, user.id)}`);
          return { ...user, userAgent };
        },
      }),
      ...extraProviders,
    ],
    callbacks: {
      // An SSO sign-in's ID token (already verified by openid-client) names an address: who it
      // signs in as, or a refusal the login page explains (lib/accounts/sso.ts). The Reelbind
      // user's id replaces the provider's `sub` on the user object next-auth passes on to `jwt`.
      async signIn({ user, account, profile }) {
        if (!account?.provider.startsWith(ssoProviderPrefix)) return true;
        const outcome = await resolveSsoSignIn(await getDb(), account.provider.slice(ssoProviderPrefix.length), profile ?? {});
        if (!outcome.ok) return `/login?error=${outcome.refusal}`;
        Object.assign(user, outcome.user);
        return true;
      },
      async jwt({ token, user, account }) {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
          token.sid = await startConsoleSession(await getDb(), user.id, { userAgent: (user as { userAgent?: string | null }).userAgent ?? (await signInUserAgent()) });
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

/** The User-Agent of the sign-in request (an SSO callback's), for the account page's session list; null outside a request. */
async function signInUserAgent(): Promise<string | null> {
  try {
    return (await headers()).get("user-agent");
  } catch {
    return null;
  }
}

/** The signed-in console user of a live session (not signed out, revoked or disabled), or null. */
export async function getConsoleUser(): Promise<ConsoleSessionUser | null> {
  const jar = await cookies();
  const token = sessionCookieNames.map((name) => jar.get(name)?.value).find(Boolean);
  return consoleUserFromSessionToken(await getDb(), token);
}
