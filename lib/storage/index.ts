import path from "node:path";
import { getConfig, type Config } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import type { BlobStore, TempFileCleaner } from "./blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

export {
  BlobNotFoundError,
  BlobRangeError,
  InvalidBlobKeyError,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from "./blob-store";

/** The driver named by the configuration: files under DATA_DIR/blobs, or an S3 bucket. */
export function createBlobStore(config: Pick<Config, "dataDir" | "storage">): BlobStore & TempFileCleaner {
  const { storage } = config;
  if (storage.driver === "local") return new LocalBlobStore({ root: path.join(config.dataDir, "blobs") });
  return new S3BlobStore({
    bucket: storage.bucket,
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    credentials: storage.credentials,
  });
}

/** The process-wide blob store, created on first use. */
export function getBlobStore(): BlobStore {
  return getStore();
}

/** Removes temp files/objects older than olderThanMs (crash leftovers); run at start-up. */
export function cleanTempFiles(olderThanMs: number): Promise<number> {
  return getStore().cleanTempFiles(olderThanMs);
}

/** Process-wide, so that reloads and route bundles do not open a second S3 client. */
function getStore(): BlobStore & TempFileCleaner {
  return processWide("blob-store", () => createBlobStore(getConfig()));
}
