import { z } from "zod";
import { maxUploadBytes, singleFileRoles, uploadFieldsSchema } from "../contract";
import { problemSchema } from "@/lib/errors";

// Request bodies of the upload-session routes (docs/direct-uploads.md).

/** Every part of a file but its last is this size: 8 MiB, above S3's 5 MB minimum; 250 MB is 32 parts. */
export const uploadPartSize = 8 * 1024 * 1024;
export const maxSessionFiles = 500;
const maxPartsPerFile = Math.ceil(maxUploadBytes / uploadPartSize);

export const uploadSessionProviders = ["s3", "local", "uploadthing"] as const;
export type UploadSessionProvider = (typeof uploadSessionProviders)[number];
export type UploadSessionStatus = "open" | "completing" | "completed" | "failed" | "cancelled" | "expired";

const declaredFileSchema = z.strictObject({
  role: z.enum([...singleFileRoles, "assetFiles"], { error: `must be one of ${[...singleFileRoles, "assetFiles"].join(", ")}` }),
  name: z.string().min(1, { error: "is required" }).max(255),
  size: z
    .number({ error: "must be a number of bytes" })
    .int({ error: "must be a whole number of bytes" })
    .min(1, { error: "must be at least 1 byte (an empty file is not a template file)" })
    .max(maxUploadBytes, { error: `must be at most ${maxUploadBytes.toLocaleString("en-US")} bytes (250 MB)` }),
  type: z.string().max(255).default("application/octet-stream"),
});
export type DeclaredFile = z.infer<typeof declaredFileSchema>;

export const createUploadSessionBody = z.strictObject({
  fields: uploadFieldsSchema,
  files: z.array(declaredFileSchema).min(1, { error: "must declare at least one file" }).max(maxSessionFiles, { error: `must declare at most ${maxSessionFiles} files` }),
});
export type CreateUploadSessionBody = z.infer<typeof createUploadSessionBody>;

const completedPartSchema = z.strictObject({
  partNumber: z.number().int().min(1).max(maxPartsPerFile),
  etag: z.string().min(1).max(200),
});

export const completeUploadSessionBody = z.strictObject({
  files: z
    .array(z.strictObject({ index: z.number().int().min(0).max(maxSessionFiles - 1), parts: z.array(completedPartSchema).max(maxPartsPerFile) }))
    .max(maxSessionFiles)
    .default([]),
});
export type CompleteUploadSessionBody = z.infer<typeof completeUploadSessionBody>;

/** How many parts a file of `size` bytes is sent in, and the size of part `partNumber` (1-based). */
export function partsOf(size: number, partSize = uploadPartSize): { count: number; sizeOf: (partNumber: number) => number } {
  const count = Math.max(1, Math.ceil(size / partSize));
  return { count, sizeOf: (partNumber) => (partNumber < count ? partSize : size - partSize * (count - 1)) };
}

/** Response shape, for the OpenAPI document (sessions.ts presentUploadSession). */
export const uploadSessionSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  status: z.enum(["open", "completing", "completed", "failed", "cancelled", "expired"]),
  provider: z.enum(uploadSessionProviders),
  partSize: z.number().int(),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  templateId: z.uuid().nullable(),
  problem: problemSchema.nullable().describe("Why the session failed: the problem its completion answered"),
  files: z.array(
    z.object({
      index: z.number().int(),
      role: z.string(),
      name: z.string(),
      size: z.number().int(),
      type: z.string(),
      parts: z.array(z.object({ partNumber: z.number().int(), size: z.number().int(), url: z.url() })).optional(),
      uploadedParts: z.array(z.object({ partNumber: z.number().int(), size: z.number().int() })).optional(),
      uploadthing: z.object({ endpoint: z.string(), input: z.object({ sessionId: z.uuid(), fileIndex: z.number().int() }) }).optional(),
      uploaded: z.boolean().optional(),
    }),
  ),
});
