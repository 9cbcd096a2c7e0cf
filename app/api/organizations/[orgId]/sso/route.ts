import { deleteSsoSettings, getSsoSettings, putSsoSettings } from "@/lib/accounts/sso";
import { ssoSettingsBody, ssoSettingsSchema } from "@/lib/accounts/sso-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/organizations/{orgId}/sso",
    operationId: "getSsoSettings",
    tag: "Organizations",
    summary: "The organization's single sign-on (OpenID Connect) settings, without the client secret, and the callback URL to register at the identity provider",
    access: { organization: "sso.read" },
    responses: { 200: { description: "The settings (null when not configured) and the callback URL", schema: ssoSettingsSchema } },
  },
  async ({ actor, db, access }) => json(await getSsoSettings({ db, actor, access })),
);

export const PUT = defineRoute(
  {
    path: "/api/organizations/{orgId}/sso",
    operationId: "putSsoSettings",
    tag: "Organizations",
    summary:
      "Configure single sign-on: issuer, client id and secret (sealed, never answered; omitted later: kept), the e-mail domain whose new addresses join with defaultRole (never OrganizationAdmin), and requireSso; 409 when the domain is another organization's or the secret is missing the first time",
    access: { organization: "sso.manage" },
    body: ssoSettingsBody,
    responses: { 200: { description: "The settings, clientSecretSet: true", schema: ssoSettingsSchema } },
    errors: { 409: "The e-mail domain is another organization's, or the client secret is missing the first time" },
  },
  async ({ actor, db, access, body }) => json(await putSsoSettings({ db, actor, access }, body)),
);

export const DELETE = defineRoute(
  {
    path: "/api/organizations/{orgId}/sso",
    operationId: "deleteSsoSettings",
    tag: "Organizations",
    summary: "Turn single sign-on off: the settings and the sealed secret are deleted; members sign in with passwords again",
    access: { organization: "sso.manage" },
    responses: { 204: { description: "Deleted (or was not configured)" } },
  },
  async ({ actor, db, access }) => {
    await deleteSsoSettings({ db, actor, access });
    return new Response(null, { status: 204 });
  },
);
