import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { templateFiles } from "@/lib/db/schema";
import { getBlobStore } from "@/lib/storage";

/**
 * Deletes the blobs of these storage keys that no template file references any more.
 * Blobs are content-addressed and shared across templates and projects, so a key is only
 * removed once nothing points at it.
 */
export async function deleteUnreferencedBlobs(db: Db, keys: string[]): Promise<void> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return;
  const rows = await db
    .selectDistinct({ storageKey: templateFiles.storageKey })
    .from(templateFiles)
    .where(inArray(templateFiles.storageKey, unique));
  const referenced = new Set(rows.map((row) => row.storageKey));
  const store = getBlobStore();
  await Promise.all(unique.filter((key) => !referenced.has(key)).map((key) => store.delete(key)));
}
