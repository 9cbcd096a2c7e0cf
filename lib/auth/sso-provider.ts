import type { OAuthConfig } from "next-auth/providers/oauth";
import { loadSsoClientSettings, ssoProviderId, ssoProviderPrefix, type SsoClientSettings } from "@/lib/accounts/sso";
import type { Db } from "@/lib/db";

// next-auth v4 takes its providers from the options, and the options are built per request
// (app/api/auth/[...nextauth]/route.ts): a sign-in or callback at /api/auth/{signin,callback}/sso-<org id>
// gets that organization's OpenID provider, built from its settings here
// (docs/adr/0161-sso-provider-per-request.md).

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization id an /api/auth path's provider names (`sso-<uuid>`), or null. */
export function ssoOrganizationOfAuthPath(segments: readonly string[]): string | null {
  const [action, providerId] = segments;
  if ((action !== "signin" && action !== "callback") || !providerId?.startsWith(ssoProviderPrefix)) return null;
  const organizationId = providerId.slice(ssoProviderPrefix.length);
  return uuid.test(organizationId) ? organizationId : null;
}

/** The provider's endpoints from its discovery document. */
type Discovered = { authorization_endpoint: string; token_endpoint: string; jwks_uri: string; userinfo_endpoint?: string };

export class SsoUnavailableError extends Error {
  readonly code = "SsoUnavailable";
}

/**
 * Reads `<issuer>/.well-known/openid-configuration` and refuses a document naming another issuer
 * (OpenID Connect Discovery 1.0, 4.3): next-auth's own discovery (`wellKnown`) would take the
 * document's issuer as the expected `iss`, so a provider answering for another issuer would pass.
 */
async function discover(issuer: string): Promise<Discovered> {
  let document: Record<string, unknown>;
  try {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000), redirect: "error" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    document = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    throw new SsoUnavailableError(`The discovery document of ${issuer} could not be read: ${(error as Error).message}`);
  }
  if (document.issuer !== issuer) throw new SsoUnavailableError(`The discovery document of ${issuer} names another issuer (${String(document.issuer)}).`);
  for (const field of ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const) {
    if (typeof document[field] !== "string") throw new SsoUnavailableError(`The discovery document of ${issuer} has no ${field}.`);
  }
  return document as unknown as Discovered;
}

export type SsoIdTokenClaims = { sub: string; email?: string; email_verified?: boolean; name?: string };

/**
 * The organization's provider: authorization code with PKCE, state and nonce (next-auth keeps
 * each in a sealed cookie and openid-client checks them at the callback), and the profile from
 * the ID token, which openid-client verifies: signature against the provider's JWKS with RS256
 * pinned (the algorithm every OpenID provider must support), `iss` equal to the configured
 * issuer, `aud` holding the client id, `exp` not past (10 s of clock tolerance), `nonce`.
 */
export function ssoProvider(settings: SsoClientSettings, endpoints: Discovered): OAuthConfig<SsoIdTokenClaims> {
  return {
    id: ssoProviderId(settings.organizationId),
    name: `${settings.organizationName} single sign-on`,
    type: "oauth",
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid email profile" } },
    token: endpoints.token_endpoint,
    ...(endpoints.userinfo_endpoint ? { userinfo: endpoints.userinfo_endpoint } : {}),
    jwks_endpoint: endpoints.jwks_uri,
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    client: { id_token_signed_response_alg: "RS256", token_endpoint_auth_method: "client_secret_basic" },
    profile: (claims) => ({ id: claims.sub, email: claims.email ?? null, name: claims.name ?? null }),
  };
}

/** The provider of the organization an /api/auth path names; null when the path names none or it has no SSO. */
export async function ssoProviderForOrganization(db: Db, organizationId: string): Promise<OAuthConfig<SsoIdTokenClaims> | null> {
  const settings = await loadSsoClientSettings(db, organizationId);
  if (!settings) return null;
  return ssoProvider(settings, await discover(settings.issuer));
}
