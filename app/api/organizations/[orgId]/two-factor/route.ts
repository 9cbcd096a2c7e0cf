import { organizationRequiresTwoFactor, setOrganizationTwoFactorRequirement } from "@/lib/accounts/two-factor";
import { organizationTwoFactorBody, organizationTwoFactorSchema } from "@/lib/accounts/two-factor-contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

export const GET = defineRoute(
  {
    path: "/api/organizations/{orgId}/two-factor",
    operationId: "getOrganizationTwoFactor",
    tag: "Organizations",
    summary: "Whether the organization requires two-factor of its members' password sign-ins",
    access: { organization: "member.list" },
    responses: { 200: { description: "The setting", schema: organizationTwoFactorSchema } },
  },
  async ({ db, access }) => json({ required: await organizationRequiresTwoFactor(db, access.organization.id) }),
);

export const PUT = defineRoute(
  {
    path: "/api/organizations/{orgId}/two-factor",
    operationId: "setOrganizationTwoFactor",
    tag: "Organizations",
    summary:
      "Require two-factor of the organization's members (or stop): one who signs in with a password and has not enrolled can use only the enrolment page until they do; tokens and SSO sign-ins are not held back",
    access: { organization: "organization.require-two-factor" },
    body: organizationTwoFactorBody,
    responses: { 200: { description: "The setting", schema: organizationTwoFactorSchema } },
  },
  async ({ actor, db, access, body }) => json(await setOrganizationTwoFactorRequirement({ db, actor, access }, body)),
);
