import { z } from "zod";
import { channelSchema } from "@/lib/shares/contract";
import { embedSessionTtlBounds } from "@/lib/tokens/embed-session-token";

// Request shapes of the embed endpoints. The token module checks the values again when it
// signs; these schemas make the bodies strict and give each field its message.

/** GET /api/embed/manifest: exactly one of ?share= and ?session=. */
export const manifestQuery = z
  .strictObject({
    share: z.string().min(1, { error: "must not be empty" }).max(64).optional(),
    session: z.string().min(1, { error: "must not be empty" }).max(8192).optional(),
  })
  .refine((query) => (query.share === undefined) !== (query.session === undefined), {
    error: "give exactly one of share (a share slug) and session (an embed-session token)",
    path: ["share"],
  });

/** POST /api/embed-sessions (docs/design.md, Tokens). */
export const embedSessionBody = z
  .strictObject({
    channel: channelSchema.optional(),
    shareSlug: z.string().regex(/^[A-Za-z0-9]{1,64}$/, { error: "must be a share slug" }).optional(),
    personalizationData: z.record(z.string(), z.unknown()).optional(),
    allowedOrigins: z.array(z.string()).optional(),
    ttlSeconds: z
      .number()
      .int({ error: "must be a whole number of seconds" })
      .min(embedSessionTtlBounds.minSeconds)
      .max(embedSessionTtlBounds.maxSeconds)
      .optional(),
  })
  .refine((body) => (body.channel === undefined) !== (body.shareSlug === undefined), {
    error: "give exactly one of channel and shareSlug",
    path: ["channel"],
  });

export type EmbedSessionInput = z.infer<typeof embedSessionBody>;

export const embedSessionSchema = z.object({
  token: z.string().describe("Pass it to the SDK: Reelbind.embed(el, { session: token })"),
  expiresAt: z.iso.datetime(),
  embedUrl: z.url().describe("The player iframe for this session"),
});
