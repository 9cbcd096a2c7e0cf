import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  UploadPartCommand,
  type S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { StorageConfig } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { blobKeyFor, hashWhileStreaming, type StoredBlob } from "./blob-store";

// Direct uploads to S3 (docs/direct-uploads.md): each declared file is a multipart upload to a
// staging object `uploads/<sessionId>/<index>`; the browser sends its parts to presigned
// UploadPart URLs. Completing assembles the object in the bucket; the app then reads it once
// (hash, type, JSON text) and copies it to its content address inside the bucket.

export const stagingPrefix = "uploads/";

export type CompletedPart = { partNumber: number; etag: string };

/** Why S3 refused to assemble a multipart upload: a client mistake (422), not a server failure. */
export class MultipartRefusedError extends Error {
  readonly code = "MULTIPART_REFUSED";
  constructor(
    readonly reason: "missing_upload" | "invalid_part" | "part_too_small",
    message: string,
  ) {
    super(message);
    this.name = "MultipartRefusedError";
  }
}

const errorName = (error: unknown) => (typeof error === "object" && error !== null ? (error as S3ServiceException).name : undefined);

export class S3MultipartStaging {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  static fromConfig(storage: Extract<StorageConfig, { driver: "s3" }>): S3MultipartStaging {
    const client = new S3Client({
      region: storage.region,
      endpoint: storage.endpoint,
      forcePathStyle: storage.forcePathStyle,
      credentials: storage.credentials,
      // A presigned part URL must not carry a checksum of a body the SDK never saw.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    return new S3MultipartStaging(client, storage.bucket);
  }

  stagingKey(sessionId: string, index: number): string {
    return `${stagingPrefix}${sessionId}/${index}`;
  }

  async create(key: string, contentType: string): Promise<string> {
    const answer = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    return answer.UploadId!;
  }

  partUrl(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }), {
      expiresIn: expiresInSeconds,
    });
  }

  /** Assembles the parts. Already assembled (a retried completion) is success when the object is there. */
  async complete(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
        }),
      );
    } catch (error) {
      const name = errorName(error);
      if (name === "NoSuchUpload" && (await this.size(key)) !== null) return;
      if (name === "NoSuchUpload") throw new MultipartRefusedError("missing_upload", "its multipart upload no longer exists");
      if (name === "InvalidPart" || name === "InvalidPartOrder") throw new MultipartRefusedError("invalid_part", "a part was not uploaded or its ETag does not match");
      if (name === "EntityTooSmall") throw new MultipartRefusedError("part_too_small", "a part other than the last is smaller than 5 MB");
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (errorName(error) === "NotFound" || errorName(error) === "NoSuchKey") return null;
      throw error;
    }
  }

  async open(key: string): Promise<AsyncIterable<Uint8Array>> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return answer.Body as AsyncIterable<Uint8Array>;
  }

  /**
   * Hashes the staged object as `chunks` (its bytes, read once by the caller's tap) and moves it to
   * its content address with a copy inside the bucket: the bytes never pass through the app twice.
   * The staged object stays (the session's clean-up deletes it).
   */
  async adopt(key: string, chunks: AsyncIterable<Uint8Array>): Promise<StoredBlob> {
    const measured = hashWhileStreaming(chunks);
    for await (const chunk of measured.chunks) void chunk;
    const { sha256, size } = measured.summary();
    const blobKey = blobKeyFor(sha256);
    const created = (await this.size(blobKey)) === null;
    if (created) await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: blobKey, CopySource: `${this.bucket}/${key}` }));
    return { key: blobKey, size, sha256, created };
  }

  /** Drops a multipart upload's parts; one already gone is fine. */
  async abort(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (errorName(error) !== "NoSuchUpload") throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Staging objects (assembled, never adopted) of sessions for which keep() is false, last written before `before`. */
  async deleteStaged(keep: (sessionId: string) => boolean, before: Date): Promise<number> {
    let removed = 0;
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: stagingPrefix })) {
      for (const object of page.Contents ?? []) {
        const sessionId = object.Key?.slice(stagingPrefix.length).split("/")[0];
        if (!object.Key || !sessionId || keep(sessionId) || (object.LastModified && object.LastModified >= before)) continue;
        await this.delete(object.Key);
        removed += 1;
      }
    }
    return removed;
  }
}

/** The process-wide staging client for STORAGE_DRIVER=s3. */
export function getS3Staging(storage: Extract<StorageConfig, { driver: "s3" }>): S3MultipartStaging {
  return processWide("s3-multipart-staging", () => S3MultipartStaging.fromConfig(storage));
}
