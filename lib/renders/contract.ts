import { z } from "zod";
import { localeBodySchema, previewBodySchema } from "@/lib/templates/preview-contract";

// Bodies, queries and responses of the render routes (lib/api/openapi.ts documents them from these).

export const renderFormats = ["mp4", "gif", "png"] as const;
export type RenderFormat = (typeof renderFormats)[number];
/** none; attach: an MP4's subtitle track (mov_text); burn: the captions drawn into the frames (MP4, GIF). */
export const renderCaptions = ["none", "attach", "burn"] as const;
export type RenderCaptions = (typeof renderCaptions)[number];
export const renderStatuses = ["queued", "rendering", "done", "failed"] as const;
export type RenderStatus = (typeof renderStatuses)[number];

/** metadata is echoed in the render and its webhook: a small JSON object. */
const maxMetadataChars = 4096;

/**
 * POST …/templates/{templateId}/renders. `data` is the preview's (string values, keys that match
 * no field are warnings); `webhookUrl` must be http(s); whether its host is public is checked apart
 * (lib/webhooks/url-safety.ts), when the render is queued and when it is delivered to.
 */
export const createRenderBody = z.strictObject({
  data: previewBodySchema.shape.data.default({}),
  format: z.enum(renderFormats, { error: `must be one of ${renderFormats.join(", ")}` }),
  locale: localeBodySchema.optional().describe("BCP 47 (de-DE): the data's formatted values and the captions are in it; default en-US"),
  captions: z
    .enum(renderCaptions, { error: `must be one of ${renderCaptions.join(", ")}` })
    .default("none")
    .describe("none; attach: an MP4 carries the captions as a subtitle track (mov_text); burn: drawn into the frames (MP4 or GIF)"),
  webhookUrl: z
    .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
    .max(2048, { error: "must be at most 2048 characters" })
    .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), { error: "must not carry a user name or password" })
    .optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((value) => JSON.stringify(value).length <= maxMetadataChars, { error: `must be at most ${maxMetadataChars} characters of JSON` })
    .optional(),
});
export type CreateRenderBody = z.infer<typeof createRenderBody>;

/** What a format can do with captions: only an MP4 has a subtitle track, a PNG has no time to show them at. */
export function captionsRefusal(format: RenderFormat, captions: RenderCaptions): string | null {
  if (captions === "attach" && format !== "mp4") return `must be none or burn for a ${format} (only an MP4 has a subtitle track)`;
  if (captions === "burn" && format === "png") return "must be none for a png (a still has no captions to show)";
  return null;
}

export const listRendersQuery = z.strictObject({
  limit: z.coerce.number({ error: "must be a whole number from 1 to 100" }).int("must be a whole number from 1 to 100").min(1).max(100).default(50),
});

export const renderSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  templateId: z.uuid(),
  campaignId: z.uuid().nullable(),
  recipientId: z.uuid().nullable(),
  purpose: z.enum(["render", "thumbnail"]),
  format: z.enum(renderFormats),
  locale: z.string().nullable(),
  captions: z.enum(renderCaptions),
  status: z.enum(renderStatuses),
  error: z.string().nullable(),
  attempts: z.number().int(),
  bytes: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  frames: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  webhookUrl: z.string().nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  downloadUrl: z.url().optional().describe("When done: signed, expires at expiresAt"),
  expiresAt: z.iso.datetime().optional(),
});

export const createdRenderSchema = z.object({ id: z.uuid(), status: z.enum(renderStatuses), warnings: z.array(z.string()) });

export const listThumbnailsQuery = z.strictObject({
  cursor: z.uuid({ error: "must be the nextCursor of a previous page" }).optional(),
  limit: z.coerce.number({ error: "must be a whole number from 1 to 1000" }).int("must be a whole number from 1 to 1000").min(1).max(1000).default(100),
});

export const queuedThumbnailsSchema = z.object({
  campaignId: z.uuid(),
  templateId: z.uuid(),
  recipients: z.number().int(),
  queued: z.number().int().describe(
    "Thumbnails queued by this call: recipients that had none of the template served now with the data their page plays now (none, the last one failed, or their data, the share's or the template changed since)",
  ),
});

export const thumbnailPageSchema = z.object({
  items: z.array(
    z.object({
      recipientId: z.uuid(),
      email: z.string().nullable(),
      recipientUrl: z.url().nullable(),
      renderId: z.uuid().nullable(),
      status: z.enum(renderStatuses).nullable(),
      error: z.string().nullable(),
      outdated: z.boolean().describe("The thumbnail shows another template or other data than the recipient's page plays now: queue the thumbnails again to refresh it"),
      thumbnailUrl: z.url().nullable().describe("Signed; expires after 30 days"),
      expiresAt: z.iso.datetime().nullable(),
      html: z.string().nullable().describe("<a href=recipientUrl><img src=thumbnailUrl></a>, for an email"),
    }),
  ),
  nextCursor: z.uuid().nullable(),
  summary: z
    .object({
      recipients: z.number().int(),
      done: z.number().int().describe("Recipients whose latest thumbnail is done"),
      pending: z.number().int().describe("Recipients whose latest thumbnail is queued or rendering"),
      failed: z.number().int().describe("Recipients whose latest thumbnail failed"),
      outdated: z.number().int().describe("Recipients whose latest thumbnail is done but outdated (see items[].outdated)"),
    })
    .describe("The whole campaign, for a progress bar: each recipient counted by its latest thumbnail"),
});
