import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  type S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import {
  assertByteRange,
  BlobNotFoundError,
  BlobRangeError,
  blobKeyFor,
  hashWhileStreaming,
  parseBlobKey,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
  type TempFileCleaner,
} from "./blob-store";

export type S3BlobStoreOptions = {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, Ceph, R2…); unset means AWS. */
  endpoint?: string;
  /** `endpoint/bucket/key` URLs instead of `bucket.endpoint/key`; most S3-compatible servers need it. */
  forcePathStyle?: boolean;
  /** Unset: the SDK's default chain (environment, shared config, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

const tempPrefix = "tmp/";

/** The object is missing; a 404 for a missing bucket (NoSuchBucket) stays a configuration error. */
function isMissingObject(error: unknown): boolean {
  const { name } = s3ErrorOf(error);
  return name === "NoSuchKey" || name === "NotFound";
}

function isUnsatisfiableRange(error: unknown): boolean {
  const { name, $metadata } = s3ErrorOf(error);
  return name === "InvalidRange" || $metadata?.httpStatusCode === 416;
}

/** The fields the AWS SDK documents for service errors, read by name rather than by class (lib/error-code.ts). */
function s3ErrorOf(error: unknown): Partial<Pick<S3ServiceException, "name" | "$metadata">> {
  return typeof error === "object" && error !== null ? (error as S3ServiceException) : {};
}

/**
 * Blobs as objects `sha256/<hex>` in one bucket. An upload goes to `tmp/<random>` first,
 * because its key is known only once the last byte has been hashed; it is then copied to
 * its content address inside the bucket.
 */
export class S3BlobStore implements BlobStore, TempFileCleaner {
  readonly bucket: string;
  readonly client: S3Client;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
    });
  }

  async put(source: AsyncIterable<Uint8Array>): Promise<StoredBlob> {
    const tempKey = `${tempPrefix}${randomUUID()}`;
    const measured = hashWhileStreaming(source);
    try {
      // Upload sends parts as they fill (memory stays at a few parts) and, on failure,
      // aborts its multipart upload so that no parts linger.
      await new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: tempKey, Body: Readable.from(measured.chunks) },
      }).done();
      const { sha256, size } = measured.summary();
      const key = blobKeyFor(sha256);
      const created = (await this.stat(key)) === null;
      if (created) {
        await this.client.send(
          new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${tempKey}` }),
        );
      }
      await this.deleteObject(tempKey);
      return { key, size, sha256, created };
    } catch (error) {
      // Best effort: the caller needs the original error; cleanTempFiles removes what remains.
      await this.deleteObject(tempKey).catch(() => undefined);
      throw measured.sourceError()?.error ?? error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    parseBlobKey(key);
    if (range) assertByteRange(key, range);
    try {
      const response = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // In Node the SDK's body is a Readable (with SDK helpers mixed in).
      return response.Body as Readable;
    } catch (error) {
      if (isMissingObject(error)) throw new BlobNotFoundError(key);
      if (range && isUnsatisfiableRange(error)) throw new BlobRangeError(key, range);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    return buffer(await this.get(key));
  }

  async stat(key: string): Promise<{ size: number } | null> {
    parseBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    parseBlobKey(key);
    await this.deleteObject(key);
  }

  /**
   * Removes temp objects a crash left between upload and copy. Incomplete multipart uploads are
   * not objects: a bucket lifecycle rule (AbortIncompleteMultipartUpload) removes those.
   */
  async cleanTempFiles(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: tempPrefix })) {
      for (const object of page.Contents ?? []) {
        if (!object.Key || !object.LastModified || object.LastModified.getTime() >= cutoff) continue;
        await this.deleteObject(object.Key);
        removed += 1;
      }
    }
    return removed;
  }

  /** S3 answers a delete of a missing key with success, so this is idempotent. */
  private async deleteObject(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
