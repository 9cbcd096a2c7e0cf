import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import rangeParser from "range-parser";
import { NotFoundError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { templateFiles } from "@/lib/db/schema";
import { getBlobStore, type ByteRange } from "@/lib/storage";
import { fileUrlTtlSeconds, verifyFileUrl } from "./file-url";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The one byte range to serve of a file of `size` bytes (RFC 9110 §14), read by range-parser
 * (express's parser): "unsatisfiable" when no range of the header fits the file (416), null to
 * serve the whole file (no header, a unit other than bytes, bad syntax, or ranges that stay
 * several after overlapping and adjacent ones are combined — a server may always ignore Range).
 */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  // Another unit is ignored even when its range could not be satisfied in bytes.
  if (!header || !/^\s*bytes=/i.test(header)) return null;
  const ranges = rangeParser(size, header, { combine: true });
  if (ranges === -1) return "unsatisfiable";
  if (ranges === -2 || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

/**
 * GET /api/embed/files/{fileId}/{name}?expires=&signature=: a template file for the player,
 * with byte ranges (a <video> seeks by range). Content under a file id never changes, so it
 * may be cached until the URL expires. The signature covers the id; the name must be the
 * file's own, so that only the URL the manifest gave opens the file.
 */
export async function serveTemplateFile(db: Db, req: Request, { fileId, name }: { fileId: string; name: string }): Promise<Response> {
  const url = new URL(req.url);
  const notFound = new NotFoundError("This file URL is unknown or has expired; reload the player.");
  if (!uuidPattern.test(fileId) || !verifyFileUrl(fileId, url.searchParams.get("expires"), url.searchParams.get("signature"))) {
    throw notFound;
  }
  const [file] = await db.select().from(templateFiles).where(eq(templateFiles.id, fileId));
  if (!file || file.name !== name) throw notFound;

  const maxAge = Math.max(0, Math.min(fileUrlTtlSeconds, Number(url.searchParams.get("expires")) - Math.floor(Date.now() / 1000)));
  const headers: Record<string, string> = {
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": `public, max-age=${maxAge}, immutable`,
    ETag: `"${file.sha256}"`,
    "X-Content-Type-Options": "nosniff",
    // Files are data for the player, never documents: an SVG or HTML upload cannot run here.
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "same-site",
  };
  if (req.headers.get("if-none-match") === headers.ETag) return new Response(null, { status: 304, headers });

  const range = parseRange(req.headers.get("range"), file.size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${file.size}` } });
  }
  const stream = (await getBlobStore().get(file.storageKey, range ?? undefined)) as Readable;
  // A <video> drops range requests all the time: close the file when the viewer goes, not at GC.
  req.signal.addEventListener("abort", () => stream.destroy(), { once: true });
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  if (!range) return new Response(body, { headers: { ...headers, "Content-Length": String(file.size) } });
  return new Response(body, {
    status: 206,
    headers: {
      ...headers,
      "Content-Length": String(range.end - range.start + 1),
      "Content-Range": `bytes ${range.start}-${range.end}/${file.size}`,
    },
  });
}
