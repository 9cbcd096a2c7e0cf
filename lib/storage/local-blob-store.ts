import { randomUUID } from "node:crypto";
import { createWriteStream, type Stats } from "node:fs";
import { lstat, mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
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

export type LocalBlobStoreOptions = {
  /** Usually DATA_DIR/blobs; created on the first put. */
  root: string;
};

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** null when the file is gone, e.g. a put renamed its temp file away while we looked. */
async function lstatIfExists(file: string): Promise<Stats | null> {
  try {
    return await lstat(file);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Makes a rename into dir durable: the directory entry itself must reach the disk. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under root: `sha256/ab/<hex>`. Temp files live in `root/tmp`, on the same
 * file system, so that publishing a finished file is one atomic rename.
 */
export class LocalBlobStore implements BlobStore, TempFileCleaner {
  readonly root: string;
  readonly tempDir: string;

  constructor({ root }: LocalBlobStoreOptions) {
    this.root = path.resolve(root);
    this.tempDir = path.join(this.root, "tmp");
  }

  /** The file of a key; the key is validated first, so nothing outside root is reachable. */
  pathOf(key: string): string {
    const { sha256 } = parseBlobKey(key);
    // Fan out by the first two hex digits so that no directory grows to millions of entries.
    return path.join(this.root, "sha256", sha256.slice(0, 2), sha256);
  }

  async put(source: AsyncIterable<Uint8Array>): Promise<StoredBlob> {
    await mkdir(this.tempDir, { recursive: true });
    const tempPath = path.join(this.tempDir, randomUUID());
    const measured = hashWhileStreaming(source);
    try {
      await writeDurably(tempPath, measured.chunks);
      const { sha256, size } = measured.summary();
      const key = blobKeyFor(sha256);
      const finalPath = this.pathOf(key);
      if (await fileExists(finalPath)) {
        await rm(tempPath);
        return { key, size, sha256, created: false };
      }
      await mkdir(path.dirname(finalPath), { recursive: true });
      await rename(tempPath, finalPath);
      await syncDirectory(path.dirname(finalPath));
      return { key, size, sha256, created: true };
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    const blobPath = this.pathOf(key);
    if (range) assertByteRange(key, range);
    const file = await openBlob(key, blobPath);
    if (!range) return file.createReadStream();
    try {
      const { size } = await file.stat();
      if (range.start >= size) throw new BlobRangeError(key, range);
      // An end past the blob reads to its end, as HTTP ranges do.
      return file.createReadStream({ start: range.start, end: range.end });
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      return { size: (await stat(this.pathOf(key))).size };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async cleanTempFiles(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let names: string[];
    try {
      names = await readdir(this.tempDir);
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tempDir, name);
      const info = await lstatIfExists(file);
      if (!info?.isFile() || info.mtimeMs >= cutoff) continue;
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }
}

/** Opening first turns a missing blob into BlobNotFoundError now, not into a stream error later. */
async function openBlob(key: string, blobPath: string): Promise<FileHandle> {
  try {
    return await open(blobPath, "r");
  } catch (error) {
    if (isNotFound(error)) throw new BlobNotFoundError(key);
    throw error;
  }
}

/**
 * Streams chunks into a new file (backpressure keeps memory flat). `flush` fsyncs it before
 * close, so the rename that follows never publishes bytes that are still only in the page cache.
 */
async function writeDurably(file: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const output = createWriteStream(file, { flags: "wx", flush: true });
  try {
    await pipeline(chunks, output);
  } catch (error) {
    // The file may still be opening when the source fails: wait, so that removing it sticks.
    if (!output.closed) await new Promise<void>((resolve) => output.once("close", () => resolve()));
    throw error;
  }
}
