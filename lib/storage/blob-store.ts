import { createHash } from "node:crypto";

// Template files are stored by content: the key is the SHA-256 of the bytes, so identical
// uploads share one blob and a key can never point at different content.

export type StoredBlob = { key: string; size: number; sha256: string; created: boolean };

/** An inclusive byte range, as in an HTTP Range header. */
export type ByteRange = { start: number; end: number };

export interface BlobStore {
  /** Streams source into a temporary object while hashing (SHA-256) and counting; when the source ends, moves it to its content address `sha256/<64 hex>` (created=false when that content was already stored; the temp object is then discarded). If the source errors or is destroyed, rejects and leaves nothing behind (no temp file/object). */
  put(source: AsyncIterable<Uint8Array>): Promise<StoredBlob>;
  /** A readable stream of the blob, or throws BlobNotFoundError. Optional byte range (inclusive end) for HTTP Range later. An end past the blob reads to its end; a malformed range, or one starting at or past the end, throws BlobRangeError. */
  get(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream>;
  read(key: string): Promise<Buffer>; // whole blob in memory (small files: JSON, images)
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>; // idempotent
}

/** Both drivers also clear what a crash left in their temp area; called at start-up. */
export interface TempFileCleaner {
  /** Removes temp files/objects last written more than olderThanMs ago; resolves to how many. */
  cleanTempFiles(olderThanMs: number): Promise<number>;
}

// Each carries a code: the blob store is process-wide, so its errors may come from another
// bundle's copy of these classes (lib/error-code.ts).

export class BlobNotFoundError extends Error {
  readonly code = "BLOB_NOT_FOUND";
  constructor(readonly key: string) {
    super(`Blob ${key} does not exist.`);
    this.name = "BlobNotFoundError";
  }
}

/** A key that is not `sha256/<64 lowercase hex>`: a bug in the caller, never a path to follow. */
export class InvalidBlobKeyError extends Error {
  readonly code = "BLOB_KEY_INVALID";
  constructor(readonly key: string) {
    super(`Invalid blob key ${JSON.stringify(key.slice(0, 100))}: expected sha256/ followed by 64 lowercase hex digits.`);
    this.name = "InvalidBlobKeyError";
  }
}

/** A range that is malformed (start > end, negative, fractional) or starts at or past the end of the blob. */
export class BlobRangeError extends RangeError {
  readonly code = "BLOB_RANGE_INVALID";
  constructor(
    readonly key: string,
    readonly range: ByteRange,
  ) {
    super(`Range ${range.start}-${range.end} cannot be read from blob ${key}.`);
    this.name = "BlobRangeError";
  }
}

const blobKeyPattern = /^sha256\/([0-9a-f]{64})$/;

/** The content address of a SHA-256 digest (64 lowercase hex digits). */
export function blobKeyFor(sha256: string): string {
  const key = `sha256/${sha256}`;
  parseBlobKey(key);
  return key;
}

/** Returns the key's hex digest; throws InvalidBlobKeyError before any storage is touched. */
export function parseBlobKey(key: string): { sha256: string } {
  const match = typeof key === "string" ? blobKeyPattern.exec(key) : null;
  if (!match) throw new InvalidBlobKeyError(String(key));
  return { sha256: match[1]! };
}

/** Rejects malformed ranges up front; whether start lies inside the blob is for the driver to check. */
export function assertByteRange(key: string, range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new BlobRangeError(key, range);
  }
}

/**
 * Passes the source's chunks through while hashing and counting them, so that a driver can
 * stream them straight to storage; summary() is valid once the chunks are exhausted.
 */
export function hashWhileStreaming(source: AsyncIterable<Uint8Array>) {
  const hash = createHash("sha256");
  let size = 0;
  let sourceError: { error: unknown } | undefined;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.byteLength;
        yield chunk;
      }
    } catch (error) {
      sourceError = { error };
      throw error;
    }
  }
  return {
    chunks: chunks(),
    summary: () => ({ sha256: hash.digest("hex"), size }),
    /** The source's own failure, which should win over whatever the storage side reported after it. */
    sourceError: () => sourceError,
  };
}
