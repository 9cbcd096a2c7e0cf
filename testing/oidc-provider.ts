import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A real OpenID provider on loopback for the single sign-on tests: the certified `oidc-provider`
// package, its development login and consent pages (any password; the login names the account),
// RS256 keys of its own, and clients registered for the callback URLs given.
//
// A client may be a misbehaving provider's: its ID token is re-signed, with the provider's own key
// (so the signature still verifies), after one claim is changed — another `iss`, another `aud`, an
// `exp` an hour past. Each then tests exactly one check of the relying party.

/** How a client's ID tokens are changed before they leave the token endpoint. */
export type IdTokenTampering = "wrong-issuer" | "wrong-audience" | "expired";

export type OidcClient = { clientId: string; clientSecret: string; redirectUris: string[]; tamper?: IdTokenTampering };
export type OidcUser = { email: string; name?: string; emailVerified?: boolean };

export type LoopbackOidcProvider = {
  /** The issuer identifier: http://127.0.0.1:<port> */
  issuer: string;
  close: () => Promise<void>;
};

const b64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

function resign(idToken: string, privateKey: KeyObject, tamper: IdTokenTampering, issuer: string): string {
  const [header, payload] = idToken.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  if (tamper === "wrong-issuer") claims.iss = `${issuer}/another-tenant`;
  if (tamper === "wrong-audience") claims.aud = "another-client";
  if (tamper === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  const signingInput = `${header}.${b64url(JSON.stringify(claims))}`;
  return `${signingInput}.${b64url(sign("sha256", Buffer.from(signingInput), privateKey))}`;
}

/** Starts the provider on a free loopback port; `users` by their e-mail, which is also their login. */
export async function startOidcProvider({ users, clients }: { users: OidcUser[]; clients: OidcClient[] }): Promise<LoopbackOidcProvider> {
  const { default: Provider } = await import("oidc-provider");
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "loopback-rs256", alg: "RS256", use: "sig" };
  const signingKey = createPrivateKey({ key: jwk as never, format: "jwk" });
  const registered = new Map(clients.map((client) => [client.clientId, client]));
  const byLogin = new Map(users.map((user) => [user.email.toLowerCase(), user]));

  const provider = new Provider(issuer, {
    clients: [...registered.values()].map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    scopes: ["openid", "email", "profile"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The scopes' claims in the ID token itself: the relying party reads its profile from there.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, accountId) {
      const user = byLogin.get(accountId.toLowerCase());
      if (!user) return undefined;
      return {
        accountId,
        claims: async () => ({ sub: `sub-${user.email.toLowerCase()}`, email: user.email, email_verified: user.emailVerified ?? true, name: user.name ?? user.email }),
      };
    },
  });

  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method !== "POST" || ctx.path !== "/token" || ctx.status !== 200) return;
    const tamper = ctx.oidc?.client ? registered.get(ctx.oidc.client.clientId)?.tamper : undefined;
    const body = ctx.body as { id_token?: string } | undefined;
    if (tamper && body?.id_token) body.id_token = resign(body.id_token, signingKey, tamper, issuer);
  });
  server.on("request", provider.callback());

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
