import { z } from "zod";

// The two-factor routes' bodies and answers (/api/me/two-factor…, /api/organizations/{orgId}/two-factor).

const code = z.string().trim().min(1, "must not be empty").max(32);

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.iso.datetime().nullable(),
  recoveryCodesLeft: z.number().int().describe("Unused recovery codes"),
  requiredBy: z.array(z.object({ id: z.uuid(), name: z.string() })).describe("The caller's organizations that require two-factor"),
});

export const twoFactorEnrolmentSchema = z.object({
  secret: z.string().describe("Base32, for typing into an authenticator app by hand"),
  otpauthUri: z.string().describe("otpauth://totp/… (SHA1, 6 digits, 30 s): what the QR code holds"),
  qrCode: z.string().describe("The QR code as a data:image/svg+xml URL"),
});

export const confirmTwoFactorBody = z.strictObject({ code: code.describe("The 6-digit code the authenticator app shows") });

export const confirmedTwoFactorSchema = z.object({
  enabled: z.literal(true),
  recoveryCodes: z.array(z.string()).describe("10 single-use recovery codes, in this response only"),
});

export const disableTwoFactorBody = z
  .strictObject({
    code: code.optional().describe("A current code or an unused recovery code"),
    password: z.string().min(1, "must not be empty").max(256).optional().describe("The account's password, instead of a code"),
  })
  .refine((body) => (body.code === undefined) !== (body.password === undefined), { message: "give exactly one of code or password" });

export const disabledTwoFactorSchema = z.object({ enabled: z.literal(false) });

export const organizationTwoFactorSchema = z.object({ required: z.boolean().describe("Members who sign in with a password must use two-factor") });
export const organizationTwoFactorBody = z.strictObject({ required: z.boolean({ error: "must be true or false" }) });
