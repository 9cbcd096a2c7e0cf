import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getConfig, parseConfig } from "@/lib/config";
import { cleanTempFiles, createBlobStore, getBlobStore } from "./index";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

// Driver selection only: no request leaves the process (the S3 client is built, never used).

const secrets = {
  TOKEN_SECRETS: "k1:0123456789abcdef0123456789abcdef",
  AUTH_SECRET: "auth-secret-0123456789abcdef0123456789",
};

describe("createBlobStore", () => {
  it("createBlobStore – STORAGE_DRIVER unset → LocalBlobStore under DATA_DIR/blobs", () => {
    const config = parseConfig({ ...secrets, DATA_DIR: "/srv/reelbind" });
    const store = createBlobStore(config);
    expect(store).toBeInstanceOf(LocalBlobStore);
    expect((store as LocalBlobStore).root).toBe(path.resolve("/srv/reelbind/blobs"));
  });

  it("createBlobStore – STORAGE_DRIVER=s3 → S3BlobStore with the configured bucket, endpoint, region, keys, path style", async () => {
    const config = parseConfig({
      ...secrets,
      DATA_DIR: "/srv/reelbind",
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "reelbind-blobs",
      S3_ENDPOINT: "http://minio.internal:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: "secret-example",
      S3_FORCE_PATH_STYLE: "1",
    });
    const store = createBlobStore(config) as S3BlobStore;
    try {
      expect(store).toBeInstanceOf(S3BlobStore);
      expect(store.bucket).toBe("reelbind-blobs");
      expect(store.client.config.forcePathStyle).toBe(true);
      expect(await store.client.config.region()).toBe("eu-central-1");
      expect(await store.client.config.endpoint?.()).toMatchObject({ protocol: "http:", hostname: "minio.internal", port: 9000 });
      expect(await store.client.config.credentials()).toMatchObject({
        accessKeyId: "AKIAEXAMPLE",
        secretAccessKey: "secret-example",
      });
    } finally {
      store.client.destroy();
    }
  });
});

describe("getBlobStore", () => {
  it("getBlobStore – twice → the same LocalBlobStore, under this test file's DATA_DIR", () => {
    const store = getBlobStore();
    expect(getBlobStore()).toBe(store);
    expect(store).toBeInstanceOf(LocalBlobStore);
    expect((store as LocalBlobStore).root).toBe(path.join(getConfig().dataDir, "blobs"));
  });

  it("cleanTempFiles – a crash leftover in DATA_DIR/blobs/tmp → removed by the selected store", async () => {
    const tempDir = path.join(getConfig().dataDir, "blobs", "tmp");
    await mkdir(tempDir, { recursive: true });
    const leftover = path.join(tempDir, "leftover");
    await writeFile(leftover, "partial");
    const anHourAgo = new Date(Date.now() - 3600_000);
    await utimes(leftover, anHourAgo, anHourAgo);

    expect(await cleanTempFiles(60_000)).toBe(1);
    expect(await readdir(tempDir)).toEqual([]);
  });
});
