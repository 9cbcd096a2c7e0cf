import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";

// Direct uploads with STORAGE_DRIVER=local (docs/direct-uploads.md): the parts the browser sends
// to the app's part route wait under DATA_DIR/uploads/<sessionId>/<index>/<partNumber> until the
// session is completed (then they are read in order into blob storage) or swept.

export type StagedPart = { partNumber: number; size: number };

export class LocalPartStaging {
  constructor(readonly root: string) {}

  private fileDir(sessionId: string, index: number): string {
    return path.join(this.root, sessionId, String(index));
  }

  /**
   * Writes one part from `body` (a temp file renamed into place, so a part is whole or absent; a
   * part sent again replaces the earlier one). More or fewer bytes than `expectedSize` → rejects
   * with PartSizeError and keeps nothing. Resolves to the part's ETag (MD5, as S3's).
   */
  async writePart(sessionId: string, index: number, partNumber: number, body: AsyncIterable<Uint8Array>, expectedSize: number): Promise<string> {
    const dir = this.fileDir(sessionId, index);
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.${partNumber}.${randomUUID()}`);
    const md5 = createHash("md5");
    let size = 0;
    async function* counted() {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > expectedSize) throw new PartSizeError(expectedSize, size);
        md5.update(chunk);
        yield chunk;
      }
      if (size !== expectedSize) throw new PartSizeError(expectedSize, size);
    }
    // Opened before the pipeline runs: a stream that opened its file lazily could create it after
    // a failed part's clean-up below had run, leaving the temp file behind.
    const file = await open(temp, "wx");
    try {
      await pipeline(counted(), file.createWriteStream());
      await rename(temp, path.join(dir, String(partNumber)));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return `"${md5.digest("hex")}"`;
  }

  /** The parts of a file received so far, by part number. */
  async listParts(sessionId: string, index: number): Promise<StagedPart[]> {
    const dir = this.fileDir(sessionId, index);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const parts = await Promise.all(
      names.filter((name) => /^\d+$/.test(name)).map(async (name) => ({ partNumber: Number(name), size: (await stat(path.join(dir, name))).size })),
    );
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  /** The file's parts 1…count, one after the other. */
  async *read(sessionId: string, index: number, count: number): AsyncGenerator<Uint8Array> {
    for (let partNumber = 1; partNumber <= count; partNumber += 1) {
      yield* createReadStream(path.join(this.fileDir(sessionId, index), String(partNumber))) as AsyncIterable<Uint8Array>;
    }
  }

  async discard(sessionId: string): Promise<void> {
    await rm(path.join(this.root, sessionId), { recursive: true, force: true });
  }

  /**
   * Session directories not among those `keep` names: what a crash left between a session's end
   * and its clean-up. The directories are listed before `keep` is asked, so a session that starts
   * meanwhile is not listed.
   */
  async discardOthers(keep: (names: string[]) => Promise<Set<string>>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw error;
    }
    const kept = await keep(names);
    const stale = names.filter((name) => !kept.has(name));
    await Promise.all(stale.map((name) => rm(path.join(this.root, name), { recursive: true, force: true })));
    return stale.length;
  }
}

export class PartSizeError extends Error {
  readonly code = "PART_SIZE";
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(received > expected ? `This part must be ${expected} bytes; more arrived.` : `This part must be ${expected} bytes; ${received} arrived.`);
    this.name = "PartSizeError";
  }
}
