import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { BlobNotFoundError, BlobRangeError, InvalidBlobKeyError, type BlobStore } from "@/lib/storage/blob-store";

// One behaviour, every driver: each driver's test file runs this suite against its store.

export type BlobStoreHarness = {
  store: BlobStore;
  /** Names of the temp files/objects present now. */
  listTemp(): Promise<string[]>;
  /** Keys of the blobs present now. */
  listBlobs(): Promise<string[]>;
  /** Most the live heap and buffers may grow during a 64 MB put; undefined: only report it. */
  memoryBudgetBytes: number | undefined;
};

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Yields data in chunks of chunkSize, as a network stream would. */
export async function* sourceOf(data: Uint8Array, chunkSize = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < data.byteLength; offset += chunkSize) {
    yield data.subarray(offset, offset + chunkSize);
  }
}

/** Yields `bytes` bytes, then throws. */
export async function* failingSource(bytes: number, error = new Error("source failed")): AsyncGenerator<Uint8Array> {
  yield* sourceOf(randomBytes(bytes));
  throw error;
}

/** A Readable destroyed after `bytes` bytes, as a request body is when its client goes away. */
export function destroyedReadable(bytes: number, error?: Error): Readable {
  const chunk = randomBytes(64 * 1024);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void this.destroy(error);
      sent += chunk.byteLength;
      this.push(Buffer.from(chunk));
    },
  });
}

const megabyte = 1024 * 1024;

/**
 * Measures live memory (a full GC before each sample, so garbage does not count) while it
 * yields `totalBytes` distinct, freshly allocated chunks: a store that buffered them all
 * would show the whole size as growth.
 */
export function generatedSource(totalBytes: number) {
  // Test workers start without --expose-gc; V8 still accepts the flag at run time.
  setFlagsFromString("--expose-gc");
  const collectGarbage = runInNewContext("gc") as () => void;
  const liveBytes = () => {
    collectGarbage();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const block = randomBytes(megabyte);
  const hash = createHash("sha256");
  const chunkSize = 64 * 1024;
  let baseline = 0;
  let peak = 0;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    baseline = liveBytes();
    for (let offset = 0; offset < totalBytes; offset += chunkSize) {
      const chunk = Buffer.from(block.subarray(offset % megabyte, (offset % megabyte) + chunkSize));
      chunk.writeUInt32BE(offset / chunkSize); // no two chunks alike, so order and loss show in the hash
      hash.update(chunk);
      yield chunk;
      if (offset % (4 * megabyte) === 0) peak = Math.max(peak, liveBytes() - baseline);
    }
  }
  return { chunks: chunks(), sha256: () => hash.digest("hex"), peakGrowth: () => peak };
}

const hex64 = "0123456789abcdef".repeat(4);
const invalidKeys = [
  "../x",
  "sha256/XYZ",
  `sha256/${hex64.slice(1)}`,
  `sha256/${hex64}0`,
  `sha256/${hex64.toUpperCase()}`,
  `sha256/../../${hex64.slice(6)}`,
  `/sha256/${hex64}`,
  `sha256/${hex64}/`,
  `sha256/${hex64}\n`,
  `tmp/${hex64}`,
  `sha256\\${hex64}`,
  "",
];

export function describeBlobStoreContract(driver: string, getHarness: () => BlobStoreHarness): void {
  describe(`${driver} – BlobStore contract`, () => {
    let h: BlobStoreHarness;
    beforeAll(() => {
      h = getHarness();
    });

    /** Stores fresh random content (nothing else in the suite has it) and returns it with its key. */
    async function putRandom(bytes = 200_000) {
      const data = randomBytes(bytes);
      return { data, stored: await h.store.put(sourceOf(data)) };
    }

    it("put → get, read, stat round trip; key and sha256 as node:crypto computes them", async () => {
      const data = randomBytes(300_000);
      const stored = await h.store.put(sourceOf(data, 10_000));
      const sha256 = sha256Hex(data);
      expect(stored).toEqual({ key: `sha256/${sha256}`, size: data.byteLength, sha256, created: true });

      expect((await h.store.read(stored.key)).equals(data)).toBe(true);
      expect((await buffer(await h.store.get(stored.key))).equals(data)).toBe(true);
      expect(await h.store.stat(stored.key)).toEqual({ size: data.byteLength });
      expect(await h.listTemp()).toEqual([]);
    });

    it("put – empty source → the empty blob, stored and readable", async () => {
      const stored = await h.store.put(sourceOf(new Uint8Array(0)));
      expect([stored.key, stored.size]).toEqual([`sha256/${sha256Hex("")}`, 0]);
      expect((await h.store.read(stored.key)).byteLength).toBe(0);
      expect(await h.store.stat(stored.key)).toEqual({ size: 0 });
    });

    it("put – same content twice → same key, created=false the second time, one blob, no temp left", async () => {
      const data = randomBytes(100_000);
      const before = await h.listBlobs();
      const first = await h.store.put(sourceOf(data));
      const second = await h.store.put(sourceOf(data, 7_000));

      expect(first.created).toBe(true);
      expect(second).toEqual({ ...first, created: false });
      expect((await h.listBlobs()).filter((key) => !before.includes(key))).toEqual([first.key]);
      expect(await h.listTemp()).toEqual([]);
      expect((await h.store.read(first.key)).equals(data)).toBe(true);
    });

    it.each([
      { failure: "source throws before its first chunk", source: () => failingSource(0), message: "source failed" },
      { failure: "source throws after 300 KB", source: () => failingSource(300_000), message: "source failed" },
      // Past one 5 MB part, so the S3 driver has begun a multipart upload.
      { failure: "source throws after 6 MB", source: () => failingSource(6 * megabyte), message: "source failed" },
      {
        failure: "source Readable destroyed after 1 MB",
        source: () => destroyedReadable(megabyte),
        message: "Premature close",
      },
      {
        failure: "source Readable destroyed with an error after 1 MB",
        source: () => destroyedReadable(megabyte, new Error("client went away")),
        message: "client went away",
      },
    ])("put – $failure → rejects with that error, no temp and no blob left", async ({ source, message }) => {
      const before = await h.listBlobs();
      await expect(h.store.put(source())).rejects.toThrow(message);
      expect(await h.listTemp()).toEqual([]);
      expect(await h.listBlobs()).toEqual(before);
    });

    it("put – 64 MB generated stream → stored whole (size, sha256), memory stays bounded", async () => {
      const totalBytes = 64 * megabyte;
      const generated = generatedSource(totalBytes);
      const stored = await h.store.put(generated.chunks);

      expect([stored.size, stored.sha256]).toEqual([totalBytes, generated.sha256()]);
      expect(await h.store.stat(stored.key)).toEqual({ size: totalBytes });
      const growthMb = generated.peakGrowth() / megabyte;
      console.info(`${driver}: live memory grew by at most ${growthMb.toFixed(1)} MB during a 64 MB put`);
      if (h.memoryBudgetBytes !== undefined) expect(generated.peakGrowth()).toBeLessThan(h.memoryBudgetBytes);
      await h.store.delete(stored.key);
    });

    describe("invalid keys", () => {
      it.each(invalidKeys.flatMap((key) => (["get", "read", "stat", "delete"] as const).map((call) => ({ call, key }))))(
        "$call($key) → InvalidBlobKeyError",
        async ({ call, key }) => {
          await expect(h.store[call](key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        },
      );
    });

    it("get, read, stat – missing key → BlobNotFoundError, BlobNotFoundError, null", async () => {
      const missing = `sha256/${sha256Hex(randomBytes(16))}`;
      await expect(h.store.get(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(h.store.get(missing, { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(h.store.read(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await h.store.stat(missing)).toBeNull();
    });

    describe("get with a range", () => {
      const content = "0123456789abcdefghijklmnopqrstuvwxyz"; // 36 bytes
      let key: string;
      beforeAll(async () => {
        key = (await h.store.put(sourceOf(Buffer.from(content), 5))).key;
      });

      it.each([
        { range: { start: 0, end: 1 }, expected: "01" },
        { range: { start: 1, end: 1 }, expected: "1" },
        { range: { start: 10, end: 19 }, expected: "abcdefghij" },
        { range: { start: 31, end: 35 }, expected: "vwxyz" },
        { range: { start: 30, end: 1000 }, expected: "uvwxyz" },
        { range: { start: 0, end: 35 }, expected: content },
      ])("get(key, $range.start-$range.end) → '$expected'", async ({ range, expected }) => {
        expect(await text(await h.store.get(key, range))).toBe(expected);
      });

      it.each([
        { range: { start: 36, end: 40 }, why: "starts at the end" },
        { range: { start: 5, end: 4 }, why: "end before start" },
        { range: { start: -1, end: 4 }, why: "negative start" },
        { range: { start: 0.5, end: 4 }, why: "fractional start" },
      ])("get(key, $range.start-$range.end) – $why → BlobRangeError", async ({ range }) => {
        await expect(h.store.get(key, range)).rejects.toBeInstanceOf(BlobRangeError);
      });
    });

    it("delete → gone; again and on a never-stored key → resolves; other blobs untouched", async () => {
      const { stored } = await putRandom();
      const { data: otherData, stored: other } = await putRandom();

      await h.store.delete(stored.key);
      expect(await h.store.stat(stored.key)).toBeNull();
      await expect(h.store.read(stored.key)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(h.store.delete(stored.key)).resolves.toBeUndefined();
      await expect(h.store.delete(`sha256/${sha256Hex(randomBytes(16))}`)).resolves.toBeUndefined();
      expect((await h.store.read(other.key)).equals(otherData)).toBe(true);
    });

    it("put after delete → stored again, created=true", async () => {
      const { data, stored } = await putRandom();
      await h.store.delete(stored.key);
      expect(await h.store.put(sourceOf(data))).toEqual(stored);
    });
  });
}
