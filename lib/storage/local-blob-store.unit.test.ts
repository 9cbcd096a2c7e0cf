import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { InvalidBlobKeyError } from "./blob-store";
import { describeBlobStoreContract, failingSource, sha256Hex, sourceOf } from "@/testing/blob-store-suite";
import { LocalBlobStore } from "./local-blob-store";

// Real files in this test file's own DATA_DIR (testing/setup.ts).

const root = path.join(getConfig().dataDir, "blobs");
const store = new LocalBlobStore({ root });

async function listOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function listBlobs(): Promise<string[]> {
  const keys: string[] = [];
  for (const fanOut of await listOrEmpty(path.join(root, "sha256"))) {
    for (const name of await listOrEmpty(path.join(root, "sha256", fanOut))) keys.push(`sha256/${name}`);
  }
  return keys.sort();
}

describeBlobStoreContract("LocalBlobStore", () => ({
  store,
  listTemp: () => listOrEmpty(store.tempDir),
  listBlobs,
  // Streaming keeps a few 64 KB chunks in flight; buffering the file would show 64 MB.
  memoryBudgetBytes: 16 * 1024 * 1024,
}));

describe("LocalBlobStore – files on disk", () => {
  it("put → DATA_DIR/blobs/sha256/<first two hex>/<hex>, holding the bytes", async () => {
    const data = randomBytes(50_000);
    const { sha256 } = await store.put(sourceOf(data));
    const file = path.join(getConfig().dataDir, "blobs", "sha256", sha256.slice(0, 2), sha256);
    expect((await readFile(file)).equals(data)).toBe(true);
  });

  it("put – while the source streams → bytes only in DATA_DIR/blobs/tmp, the blob appears at the end", async () => {
    const data = randomBytes(512 * 1024);
    const key = `sha256/${sha256Hex(data)}`;
    const seenMidway: { temp: string[]; blobExists: boolean }[] = [];
    async function* observedSource() {
      yield* sourceOf(data.subarray(0, 256 * 1024));
      seenMidway.push({ temp: await readdir(store.tempDir), blobExists: (await store.stat(key)) !== null });
      yield* sourceOf(data.subarray(256 * 1024));
    }
    await store.put(observedSource());
    expect(seenMidway).toEqual([{ temp: [expect.stringMatching(/^[0-9a-f-]{36}$/)], blobExists: false }]);
    expect(await store.stat(key)).toEqual({ size: data.byteLength });
    expect(await readdir(store.tempDir)).toEqual([]);
  });

  it("put – 1000 sources that fail before their first chunk → no temp file left, though each may still be opening", async () => {
    // The write stream opens its file on the thread pool; removing the file before that open
    // completes would leave it behind. Without the wait a few in a thousand stay.
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      await expect(store.put(failingSource(0))).rejects.toThrow("source failed");
    }
    expect(await readdir(store.tempDir)).toEqual([]);
  });

  it("get(key, 0-0) → the first byte (s3rver answers this range with the whole object, so it is tested here)", async () => {
    const { key } = await store.put(sourceOf(Buffer.from("first byte")));
    expect(await text(await store.get(key, { start: 0, end: 0 }))).toBe("f");
  });

  it("invalid keys → rejected before the disk is touched (no directory made, nothing outside root deleted)", async () => {
    const parent = path.join(getConfig().dataDir, "untouched");
    const untouchedRoot = path.join(parent, "blobs");
    await mkdir(parent);
    await writeFile(path.join(parent, "x"), "keep me");
    const untouched = new LocalBlobStore({ root: untouchedRoot });

    await expect(untouched.delete("../x")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(untouched.read("../x")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(untouched.get("sha256/../../x")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(await readFile(path.join(parent, "x"), "utf8")).toBe("keep me");
    expect(existsSync(untouchedRoot)).toBe(false);
  });
});

describe("LocalBlobStore – cleanTempFiles", () => {
  it("cleanTempFiles(1 h) → removes only temp files older than an hour; blobs untouched", async () => {
    const { key } = await store.put(sourceOf(randomBytes(1000)));
    await mkdir(store.tempDir, { recursive: true });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    const files = { crashed: hoursAgo(3), justOld: hoursAgo(1.01), fresh: hoursAgo(0.5), current: new Date() };
    for (const [name, mtime] of Object.entries(files)) {
      await writeFile(path.join(store.tempDir, name), "partial upload");
      await utimes(path.join(store.tempDir, name), mtime, mtime);
    }

    expect(await store.cleanTempFiles(3600_000)).toBe(2);
    expect((await readdir(store.tempDir)).sort()).toEqual(["current", "fresh"]);
    expect(await store.stat(key)).toEqual({ size: 1000 });
  });

  it("cleanTempFiles – no tmp directory yet → 0", async () => {
    const fresh = new LocalBlobStore({ root: path.join(getConfig().dataDir, "never-used") });
    expect(await fresh.cleanTempFiles(0)).toBe(0);
  });
});
