// A server process for bench/upload.ts: serves either the real upload route handler or a
// baseline that reads the body with request.formData(); bench/upload.ts samples its memory.
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";

const variant = process.argv[2] as "streaming" | "formData";

async function main() {
  const { createTestMember, createTestProject } = await import("@/testing/factories");
  const { getDb } = await import("@/lib/db");
  const { POST } = await import("@/app/api/Projects/[projectId]/templates/upload/route");
  await getDb();
  const { project } = await createTestProject("Upload bench");
  const { token } = await createTestMember("Editor", { projectId: project.id });

  // The baseline: what a handler that calls request.formData() costs — the whole body in memory.
  async function formDataBaseline(request: Request): Promise<Response> {
    const form = await request.formData();
    const dir = path.join(process.env.DATA_DIR!, "baseline");
    mkdirSync(dir, { recursive: true });
    for (const [name, value] of form) {
      if (typeof value !== "string") writeFileSync(path.join(dir, name), Buffer.from(await value.arrayBuffer()));
    }
    return new Response(JSON.stringify({ ok: true }), { status: 201 });
  }

  const server = http.createServer(async (req, res) => {
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: { ...(req.headers as Record<string, string>), authorization: `Bearer ${token}` },
      body: Readable.toWeb(req) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    const response =
      variant === "formData"
        ? await formDataBaseline(request)
        : await POST(request, { params: Promise.resolve({ projectId: project.id }) });
    const body = await response.text();
    res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
  });
}

void main();
