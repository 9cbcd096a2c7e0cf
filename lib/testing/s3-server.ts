import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

// A real S3 API for tests: s3rver in this process on 127.0.0.1, a random free port, a
// directory of its own and one bucket.

type S3rverServer = { run(): Promise<{ port: number }>; close(): Promise<void> };
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
  /** The app's configuration for this bucket (README, "Configuration"). */
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

export type S3ServerOptions = {
  /**
   * The bucket's CORS rule for browsers that PUT parts to presigned URLs (docs/direct-uploads.md):
   * the origins allowed (`["*"]` for any), PUT, GET and HEAD, any request header, ETag exposed.
   */
  corsOrigins?: string[];
};

/** The CORS configuration the browser's direct uploads need, as S3 takes it (PutBucketCors). */
export function directUploadCors(origins: readonly string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join("");
  return (
    `<CORSConfiguration><CORSRule>${allowed}<AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>` +
    `<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`
  );
}

export async function startS3Server(bucket = "reelbind-blobs", options: S3ServerOptions = {}): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), "reelbind-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    // s3rver signs bucket-level requests for `/bucket`, while the SDK now sends `/bucket/`
    // (ListObjectsV2), so it would reject every listing; signing is the SDK's job, not ours.
    allowMismatchedSignatures: true,
    directory,
    configureBuckets: [{ name: bucket, configs: options.corsOrigins ? [directUploadCors(options.corsOrigins)] : [] }],
  });
  const { port } = await withTimeout(server.run(), 10_000, "starting s3rver");
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
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
