import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { partsOf } from "@/lib/templates/upload-sessions/contract";
import { LocalPartStaging } from "./local-parts";

const root = mkdtempSync(path.join(tmpdir(), "reelbind-parts-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function* chunks(...pieces: string[]) {
  for (const piece of pieces) yield Buffer.from(piece);
}

describe("partsOf", () => {
  it.each([
    { size: 1, partSize: 8, count: 1, sizes: [1] },
    { size: 8, partSize: 8, count: 1, sizes: [8] },
    { size: 9, partSize: 8, count: 2, sizes: [8, 1] },
    { size: 20, partSize: 8, count: 3, sizes: [8, 8, 4] },
  ])("partsOf – $size bytes in parts of $partSize → $count parts", ({ size, partSize, count, sizes }) => {
    const parts = partsOf(size, partSize);
    expect(parts.count).toBe(count);
    expect(Array.from({ length: count }, (_, i) => parts.sizeOf(i + 1))).toEqual(sizes);
  });
});

describe("LocalPartStaging", () => {
  it("writePart – parts written whole, listed by number, read back in order; the ETag is the part's MD5; a part sent again replaces it", async () => {
    const staging = new LocalPartStaging(root);
    const etag = await staging.writePart("s1", 0, 2, chunks("wor", "ld"), 5);
    expect(etag).toBe(`"${createHash("md5").update("world").digest("hex")}"`);
    await staging.writePart("s1", 0, 1, chunks("HELLO "), 6);
    await staging.writePart("s1", 0, 1, chunks("hello "), 6);
    expect(await staging.listParts("s1", 0)).toEqual([
      { partNumber: 1, size: 6 },
      { partNumber: 2, size: 5 },
    ]);
    const read: Buffer[] = [];
    for await (const chunk of staging.read("s1", 0, 2)) read.push(Buffer.from(chunk));
    expect(Buffer.concat(read).toString()).toBe("hello world");
  });

  it("writePart – more or fewer bytes than the part's size → PartSizeError, and no file of it (not even a temp file)", async () => {
    const staging = new LocalPartStaging(root);
    await expect(staging.writePart("s2", 0, 1, chunks("too long"), 3)).rejects.toMatchObject({ code: "PART_SIZE", expected: 3 });
    await expect(staging.writePart("s2", 0, 1, chunks("ab"), 3)).rejects.toMatchObject({ code: "PART_SIZE", received: 2 });
    expect(await staging.listParts("s2", 0)).toEqual([]);
    expect(readdirSync(path.join(root, "s2", "0"))).toEqual([]);
  });

  it("discardOthers – removes the session directories not kept, asking about the listed ones only", async () => {
    const staging = new LocalPartStaging(root);
    await staging.writePart("keep", 0, 1, chunks("k"), 1);
    await staging.writePart("drop", 0, 1, chunks("d"), 1);
    let asked: string[] = [];
    const removed = await staging.discardOthers(async (names) => {
      asked = [...names].sort();
      return new Set(names.filter((name) => name !== "drop"));
    });
    expect(asked).toEqual(["drop", "keep", "s1", "s2"]);
    expect(removed).toBe(1);
    expect(readdirSync(root).sort()).toEqual(["keep", "s1", "s2"]);
  });
});
