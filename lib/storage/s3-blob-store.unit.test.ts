import { randomBytes } from "node:crypto";
import { ListObjectsV2Command, paginateListObjectsV2, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startS3Server, s3rverCredentials as credentials, type S3Server } from "@/testing/s3-server";
import { BlobNotFoundError, InvalidBlobKeyError } from "./blob-store";
import { describeBlobStoreContract, failingSource, sourceOf } from "@/testing/blob-store-suite";
import { S3BlobStore } from "./s3-blob-store";

// A real S3 API: s3rver in this process on 127.0.0.1, a random free port, its own directory.

let server: S3Server;
let bucket: string;
let endpoint: string;
let store: S3BlobStore;

beforeAll(async () => {
  server = await startS3Server();
  ({ bucket, endpoint } = server);
  store = new S3BlobStore({ bucket, region: "us-east-1", endpoint, forcePathStyle: true, credentials });
});

afterAll(async () => {
  store?.client.destroy();
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of paginateListObjectsV2({ client: store.client }, { Bucket: bucket, Prefix: prefix })) {
    for (const object of page.Contents ?? []) keys.push(object.Key!);
  }
  return keys.sort();
}

/** Records the names of the S3 commands the store sends from now on; `fail` makes that command throw. */
function recordCommands(fail?: string): string[] {
  const sent: string[] = [];
  const send = store.client.send.bind(store.client) as (...args: unknown[]) => unknown;
  vi.spyOn(store.client, "send").mockImplementation(((command: { constructor: { name: string } }, ...rest: unknown[]) => {
    sent.push(command.constructor.name);
    if (command.constructor.name === fail) return Promise.reject(new Error(`${fail} failed`));
    return send(command, ...rest);
  }) as typeof store.client.send);
  return sent;
}

describeBlobStoreContract("S3BlobStore", () => ({
  store,
  listTemp: () => listKeys("tmp/"),
  listBlobs: () => listKeys("sha256/"),
  // Upload holds up to four 5 MB parts, and s3rver runs in this process: report, do not assert.
  memoryBudgetBytes: undefined,
}));

describe("S3BlobStore – requests", () => {
  it("put – new content → Upload to tmp/, HeadObject, CopyObject to sha256/<hex>, DeleteObject of the temp", async () => {
    const sent = recordCommands();
    const { key } = await store.put(sourceOf(randomBytes(10_000)));
    expect(sent).toEqual(["PutObjectCommand", "HeadObjectCommand", "CopyObjectCommand", "DeleteObjectCommand"]);
    expect(await listKeys(key)).toEqual([key]);
  });

  it("put – content already stored → no CopyObject, the temp object deleted", async () => {
    const data = randomBytes(10_000);
    await store.put(sourceOf(data));
    const sent = recordCommands();
    expect((await store.put(sourceOf(data))).created).toBe(false);
    expect(sent).toEqual(["PutObjectCommand", "HeadObjectCommand", "DeleteObjectCommand"]);
  });

  it("put – source fails after a multipart upload began → AbortMultipartUpload sent, the source's error kept", async () => {
    const sent = recordCommands();
    await expect(store.put(failingSource(12 * 1024 * 1024, new Error("upload cut off")))).rejects.toThrow("upload cut off");
    expect(sent).toContain("CreateMultipartUploadCommand");
    expect(sent).toContain("AbortMultipartUploadCommand");
    expect(await listKeys("tmp/")).toEqual([]);
  });

  it("put – CopyObject fails after the upload → rejects, the temp object deleted, no blob", async () => {
    const before = await listKeys("sha256/");
    const sent = recordCommands("CopyObjectCommand");
    await expect(store.put(sourceOf(randomBytes(10_000)))).rejects.toThrow("CopyObjectCommand failed");
    expect(sent).toEqual(["PutObjectCommand", "HeadObjectCommand", "CopyObjectCommand", "DeleteObjectCommand"]);
    vi.restoreAllMocks();
    expect(await listKeys("tmp/")).toEqual([]);
    expect(await listKeys("sha256/")).toEqual(before);
  });

  it("invalid keys → rejected before any request", async () => {
    const sent = recordCommands();
    for (const call of ["get", "read", "stat", "delete"] as const) {
      await expect(store[call]("../x")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
    expect(sent).toEqual([]);
  });

  it("get – bucket missing → the S3 error (NoSuchBucket), not BlobNotFoundError", async () => {
    const elsewhere = new S3BlobStore({ bucket: "no-such-bucket", region: "us-east-1", endpoint, forcePathStyle: true, credentials });
    try {
      const { key } = await store.put(sourceOf(randomBytes(100)));
      const error = await elsewhere.get(key).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(BlobNotFoundError);
      expect((error as Error).name).toBe("NoSuchBucket");
    } finally {
      elsewhere.client.destroy();
    }
  });
});

describe("S3BlobStore – cleanTempFiles", () => {
  it("cleanTempFiles → keeps a temp object younger than the limit, removes it once older; blobs untouched", async () => {
    const { key } = await store.put(sourceOf(randomBytes(1000)));
    const tempKey = "tmp/left-by-a-crash";
    await store.client.send(new PutObjectCommand({ Bucket: bucket, Key: tempKey, Body: "partial" }));

    expect(await store.cleanTempFiles(3600_000)).toBe(0);
    expect(await listKeys("tmp/")).toEqual([tempKey]);

    // Let the clock pass the object's LastModified, so that "older than 0 ms" holds for it.
    const listed = await store.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: tempKey }));
    const lastModified = listed.Contents![0]!.LastModified!.getTime();
    await vi.waitUntil(() => Date.now() > lastModified, { timeout: 2000 });
    expect(await store.cleanTempFiles(0)).toBe(1);
    expect(await listKeys("tmp/")).toEqual([]);
    expect(await store.stat(key)).toEqual({ size: 1000 });
  });
});
