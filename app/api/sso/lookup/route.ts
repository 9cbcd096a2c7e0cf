import { findSsoOrganizationForEmail, ssoProviderId } from "@/lib/accounts/sso";
import { ssoLookupBody, ssoLookupSchema } from "@/lib/accounts/sso-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";

export const POST = defineRoute(
  {
    path: "/api/sso/lookup",
    operationId: "lookUpSso",
    tag: "Account",
    summary:
      "The single sign-on an address signs in through, found by its domain: the next-auth provider to POST /api/auth/signin/{providerId} to; 404 when no organization signs in that domain. It tells about domains, never about accounts",
    // Before sign-in: the login page's "Sign in with single sign-on" step asks it.
    access: "public",
    body: ssoLookupBody,
    responses: { 200: { description: "The provider and its organization's name", schema: ssoLookupSchema } },
    errors: { 404: "No organization signs in this address's domain through single sign-on" },
  },
  async ({ body }) => {
    const found = await findSsoOrganizationForEmail(await getDb(), body.email);
    if (!found) throw new NotFoundError(`No organization signs in ${body.email.slice(body.email.lastIndexOf("@") + 1)} addresses with single sign-on; sign in with your password.`);
    return json({ providerId: ssoProviderId(found.organizationId), organizationName: found.organizationName });
  },
);
