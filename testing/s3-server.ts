import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

// A real S3 API for tests: s3rver in this process on 127.0.0.1, a random free port, a
// directory of its own and one bucket.

type KoaContext = { method: string; path: string; query: Record<string, string | string[] | undefined>; status: number; body: unknown };
type S3rverServer = {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
};
type S3rverOptions = {
  address: string;
  port: number;
  silent: boolean;
  allowMismatchedSignatures: boolean;
  directory: string;
  configureBuckets: { name: string; configs?: string[] }[];
};
const S3rver = createRequire(import.meta.url)("@20minutes/s3rver") as new (options: S3rverOptions) => S3rverServer;

/** s3rver's built-in account. */
export const s3rverCredentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export type S3Server = {
  endpoint: string;
  bucket: string;
  /** Multipart uploads started and neither completed nor aborted. */
  pendingMultipartUploads: () => Promise<string[]>;
  /** The app's configuration for this bucket (docs/operations.md, "Every variable"). */
  env: Record<string, string>;
  close: () => Promise<void>;
};

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The bucket CORS a browser needs to PUT parts straight to it from the console (docs/direct-uploads.md,
 * "The S3 bucket"): PUT from any origin, the ETag header readable.
 */
const browserUploadCors = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

export async function startS3Server(bucket = "reelbind-blobs"): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), "reelbind-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    // s3rver signs bucket-level requests for `/bucket`, while the SDK now sends `/bucket/`
    // (ListObjectsV2), so it would reject every listing; signing is the SDK's job, not ours.
    allowMismatchedSignatures: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [browserUploadCors] }],
  });
  // s3rver 4 has no AbortMultipartUpload (DELETE ?uploadId): this adds it, dropping the upload's
  // parts as S3 does, so that aborting can be tested and observed (pendingMultipartUploads).
  const uploadsDir = server.store.getResourcePath(bucket, undefined, "uploads");
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== "DELETE" || typeof uploadId !== "string" || !ctx.path.startsWith(`/${bucket}/`)) return next();
    if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) return next();
    await rm(path.join(uploadsDir, uploadId), { recursive: true, force: true });
    ctx.status = 204;
    ctx.body = null;
  });
  const { port } = await withTimeout(server.run(), 10_000, "starting s3rver");
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    pendingMultipartUploads: () => readdir(uploadsDir).catch(() => []),
    env: {
      STORAGE_DRIVER: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: s3rverCredentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3rverCredentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: "1",
    },
    close: async () => {
      await withTimeout(server.close(), 10_000, "closing s3rver");
      await rm(directory, { recursive: true, force: true });
    },
  };
}
