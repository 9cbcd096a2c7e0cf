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
    viewerId: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(200, { error: "must be at most 200 characters" })
      .optional()
      .describe("Your own id of the viewer (never stored; the token carries its SHA-256 with the project): the same viewer keeps their A/B variant across sessions, as a campaign recipient of that id does"),
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

/** GET /api/embed/manifest's answer (shared/embed-protocol.ts, PageManifest), for the OpenAPI document. */
export const pageManifestSchema = z.object({
  version: z.literal(1),
  organizationId: z.uuid(),
  projectId: z.uuid(),
  shareId: z.uuid().nullable(),
  channel: channelSchema.nullable(),
  title: z.string(),
  locale: z.string().nullable(),
  template: z
    .object({
      id: z.uuid(),
      version: z.string(),
      kind: z.enum(["LottieStandalone", "Raster"]),
      width: z.number(),
      height: z.number(),
      files: z.object({ templateJson: z.string().nullable(), videoFile: z.string().nullable(), posterFile: z.string().nullable(), assets: z.record(z.string(), z.string()) }),
      overlay: z.object({ fit: z.enum(["contain", "cover", "fill"]), offsetSeconds: z.number() }).nullable(),
    })
    .nullable(),
  bindings: z.object({ manifest: z.record(z.string(), z.unknown()).nullable(), data: z.record(z.string(), z.string()) }),
  chapters: z.array(z.object({ id: z.string(), name: z.string(), startMs: z.number(), endMs: z.number() })),
  ctas: z.array(z.object({ id: z.string(), name: z.string(), layer: z.string() })),
  cta: z.object({ label: z.string(), url: z.string() }).nullable(),
  consent: z.object({ mode: z.string() }),
  ingest: z.object({ url: z.string(), token: z.string(), expiresAt: z.iso.datetime() }).nullable(),
  allowedOrigins: z.array(z.string()).nullable(),
});
