// The login page's words for next-auth's and the SSO sign-in's ?error= codes (lib/accounts/sso.ts,
// docs/adr/0161-sso-provider-per-request.md). Not in the "use client" module: the server page calls it.

/** What the login page says for next-auth's and the SSO sign-in's ?error= codes; null for none. */
export function ssoRefusalMessage(code: string | undefined): string | null {
  switch (code) {
    case undefined:
    case "":
      return null;
    case "SsoNotMember":
      return "Your identity provider signed you in, but that address is not a member of this organization. Ask an OrganizationAdmin to invite you.";
    case "SsoNoEmail":
      return "Your identity provider did not give a verified e-mail address, so you cannot be signed in.";
    case "SsoUserDisabled":
      return "This account is disabled.";
    case "SsoUnavailable":
      return "Single sign-on of this organization is not available: its identity provider could not be reached or is misconfigured. Ask an OrganizationAdmin.";
    case "OAuthCallback":
    case "OAuthSignin":
    case "Callback":
      return "Single sign-on failed: the identity provider's answer could not be verified. You are not signed in.";
    case "AccessDenied":
      return "Sign-in was refused.";
    default:
      return null;
  }
}
