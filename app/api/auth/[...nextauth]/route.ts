import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/next-auth";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

// GET|POST /api/auth/* – next-auth (console sign-in, sign-out, session)
function handler(req: Request, context: NextAuthContext) {
  return NextAuth(getAuthOptions())(req, context);
}

export { handler as GET, handler as POST };
