import NextAuth from "next-auth";
import { errorResponse } from "@/lib/api/errors";
import { getAuthOptions } from "@/lib/auth/next-auth";
import { signInFieldsOf, spendSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { ssoOrganizationOfAuthPath, ssoProviderForOrganization } from "@/lib/auth/sso-provider";
import { userOfTwoFactorChallenge } from "@/lib/auth/two-factor-challenge";
import { spendTwoFactorAttempt } from "@/lib/auth/two-factor-throttle";
import { clientAddress } from "@/lib/client-address";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth with the options of this request: a sign-in or callback at …/sso-<org id> gets that
 * organization's OpenID provider (docs/adr/0161-sso-provider-per-request.md). An organization
 * without SSO, or whose provider cannot be discovered, is a refusal on the login page, never a 500.
 */
async function nextAuth(req: Request, context: NextAuthContext) {
  const { nextauth } = await context.params;
  const organizationId = ssoOrganizationOfAuthPath(nextauth);
  if (!organizationId) return NextAuth(getAuthOptions())(req, context);
  let provider;
  try {
    provider = await ssoProviderForOrganization(await getDb(), organizationId);
  } catch (error) {
    console.warn(`Single sign-on of organization ${organizationId}: ${(error as Error).message}`);
  }
  if (!provider) {
    const refused = new URL("/login?error=SsoUnavailable", getConfig().publicBaseUrl).href;
    // The login page starts a sign-in with fetch and json=true, as next-auth/react does: it gets the address to go to.
    return req.method === "POST" ? Response.json({ url: refused }) : Response.redirect(refused, 303);
  }
  return NextAuth(getAuthOptions([provider]))(req, context);
}

// GET /api/auth/* – next-auth (CSRF token, providers, session, an OpenID provider's callback)
function GET(req: Request, context: NextAuthContext) {
  return nextAuth(req, context);
}

// POST /api/auth/* – next-auth; a credentials sign-in first spends an attempt of its account and
// client address, so a used-up limit answers 429 before any password is checked. Its second step
// (a two-factor challenge and a code) spends one of the challenged user's code attempts instead.
async function POST(req: Request, context: NextAuthContext) {
  const { nextauth } = await context.params;
  if (nextauth.join("/") === "callback/credentials") {
    try {
      const fields = await signInFieldsOf(req);
      const db = await getDb();
      if (fields.challenge) {
        const user = await userOfTwoFactorChallenge(db, fields.challenge);
        if (user) await spendTwoFactorAttempt(db, user.id);
      } else {
        const email = typeof fields.email === "string" ? fields.email : "";
        await spendSignInAttempt(db, { email, address: clientAddress((name) => req.headers.get(name)) });
      }
    } catch (error) {
      return errorResponse(error);
    }
  }
  return nextAuth(req, context);
}

export { GET, POST };
