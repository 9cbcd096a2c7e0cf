import NextAuth from "next-auth";
import { errorResponse } from "@/lib/api/errors";
import { getAuthOptions } from "@/lib/auth/next-auth";
import { signInFieldsOf, spendSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { userOfTwoFactorChallenge } from "@/lib/auth/two-factor-challenge";
import { spendTwoFactorAttempt } from "@/lib/auth/two-factor-throttle";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

// GET /api/auth/* – next-auth (CSRF token, providers, session)
function GET(req: Request, context: NextAuthContext) {
  return NextAuth(getAuthOptions())(req, context);
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
  return NextAuth(getAuthOptions())(req, context);
}

export { GET, POST };
