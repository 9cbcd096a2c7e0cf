import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { schema, type Db } from "@/lib/db";
import { parseRange } from "@/lib/embed/serve-file";
import { getBlobStore } from "@/lib/storage";
import { verifyRenderDownload, type RenderPurpose } from "./download-url";

const contentTypes: Record<string, string> = { mp4: "video/mp4", gif: "image/gif", png: "image/png" };

/**
 * A finished render's file, with byte ranges (a <video> seeks by range). A missing, forged or
 * expired signature is the same 404 as an unknown render. A render is downloaded as a file; a
 * campaign thumbnail is shown inline (it is an <img> in an email).
 */
export async function serveRenderDownload(db: Db, req: Request, renderId: string): Promise<Response> {
  const url = new URL(req.url);
  const notFound = new NotFoundError("This download URL is unknown or has expired; get the render again for a fresh one.");
  if (!isUuid(renderId)) throw notFound;
  const [render] = await db.select().from(schema.renders).where(eq(schema.renders.id, renderId));
  if (!render || render.status !== "done" || !render.storageKey) throw notFound;
  if (!verifyRenderDownload(render.id, render.purpose as RenderPurpose, url.searchParams.get("expires"), url.searchParams.get("signature"))) throw notFound;

  const size = render.bytes ?? (await getBlobStore().stat(render.storageKey))?.size ?? 0;
  const fileName = `${render.purpose}-${render.id}.${render.format}`;
  const maxAge = Math.max(0, Number(url.searchParams.get("expires")) - Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    "Content-Type": contentTypes[render.format] ?? "application/octet-stream",
    "Content-Disposition": `${render.purpose === "thumbnail" ? "inline" : "attachment"}; filename="${fileName}"`,
    "Accept-Ranges": "bytes",
    "Cache-Control": `private, max-age=${maxAge}, immutable`,
    ETag: `"${render.storageKey.slice("sha256/".length)}"`,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  if (req.headers.get("if-none-match") === headers.ETag) return new Response(null, { status: 304, headers });
  const range = parseRange(req.headers.get("range"), size);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  const stream = (await getBlobStore().get(render.storageKey, range ?? undefined)) as Readable;
  req.signal.addEventListener("abort", () => stream.destroy(), { once: true });
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  if (!range) return new Response(body, { headers: { ...headers, "Content-Length": String(size) } });
  return new Response(body, {
    status: 206,
    headers: { ...headers, "Content-Length": String(range.end - range.start + 1), "Content-Range": `bytes ${range.start}-${range.end}/${size}` },
  });
}
