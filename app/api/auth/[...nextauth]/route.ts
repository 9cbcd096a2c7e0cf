import NextAuth from "next-auth";
import { errorResponse } from "@/lib/api/errors";
import { getAuthOptions } from "@/lib/auth/next-auth";
import { signInEmailOf, spendSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

// GET /api/auth/* – next-auth (CSRF token, providers, session)
function GET(req: Request, context: NextAuthContext) {
  return NextAuth(getAuthOptions())(req, context);
}

// POST /api/auth/* – next-auth; a credentials sign-in first spends an attempt of its account and
// client address, so a used-up limit answers 429 before any password is checked.
async function POST(req: Request, context: NextAuthContext) {
  const { nextauth } = await context.params;
  if (nextauth.join("/") === "callback/credentials") {
    try {
      const email = await signInEmailOf(req);
      await spendSignInAttempt(await getDb(), { email, address: clientAddress((name) => req.headers.get(name)) });
    } catch (error) {
      return errorResponse(error);
    }
  }
  return NextAuth(getAuthOptions())(req, context);
}

export { GET, POST };
