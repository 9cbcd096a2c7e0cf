import { spawn } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "@/lib/db";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { makeLottie, solidLayer, textLayer } from "@/testing/fixtures/lottie-builders";
import { okJson, templatesUrl, upload, type TemplateJson } from "@/testing/template-api";
import { POST as createRoute } from "@/app/api/Projects/[projectId]/templates/[templateId]/renders/route";
import { createRenderQueue, type RenderQueue, type RenderQueueOptions } from "./queue";

// Workers that stop or die mid-render, on the run's database (this file's own: no other file's
// worker claims its renders). Leases of 20 s, so that a dead worker's render is taken up soon.

const options: RenderQueueOptions = { concurrency: 1, leaseSeconds: 20, retryDelaySeconds: 1, pollMs: 500 };
const makeQueue = (): RenderQueue => createRenderQueue(options);

let projectId: string;
let editor: string;
let template: TemplateJson;

/** 10 s of 720p: a few seconds of rendering, long enough to stop a worker in the middle. */
const long = makeLottie({ w: 1280, h: 720, fr: 30, op: 300, layers: [textLayer("{{name}}", "Hello", { op: 300 }), solidLayer("Background", "#335577", 1280, 720, { op: 300 })] });

beforeAll(async () => {
  // The process's own queue is never started here: only the workers of each test claim renders.
  const { project } = await createTestProject("Render queue");
  projectId = project.id;
  editor = (await createTestMember("Editor", { projectId })).token;
  template = await okJson<TemplateJson>(
    await upload(editor, projectId, [
      { name: "name", value: "Long" },
      { name: "kind", value: "LottieStandalone" },
      { name: "templateJson", filename: "long.json", content: JSON.stringify({ ...long, nm: `long-${projectId}` }), contentType: "application/json" },
    ]),
    201,
  );
});

const running: RenderQueue[] = [];
afterAll(async () => {
  await Promise.all(running.map((queue) => queue.stop()));
});

/** Creates the render row as the API does, without letting this process's own queue run it. */
async function createRender(): Promise<string> {
  const url = `${templatesUrl(projectId)}/${template.id}/renders`;
  const response = await createRoute(apiRequest("POST", url, { token: editor, body: { data: { name: "Ana" }, format: "mp4" } }), routeParams({ projectId, templateId: template.id }));
  return (await okJson<{ id: string }>(response, 202)).id;
}

async function rowOf(renderId: string) {
  const [row] = await (await getDb()).select().from(schema.renders).where(eq(schema.renders.id, renderId));
  return row!;
}

async function waitFor(renderId: string, done: (row: Awaited<ReturnType<typeof rowOf>>) => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await rowOf(renderId);
    if (done(row)) return row;
    if (Date.now() > deadline) throw new Error(`render ${renderId} stayed ${row.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("render queue", () => {
  it("a worker stopped mid-render gives the render back (queued, the attempt not counted); another worker renders it", { timeout: 120_000 }, async () => {
    const first = makeQueue();
    running.push(first);
    await first.start();
    const renderId = await createRender();
    await first.enqueue([renderId]); // wakes this worker rather than waiting for its next look
    await waitFor(renderId, (row) => row.status === "rendering");
    await first.stop();
    // stop() is bounded (2.5 s): on a busy machine the aborted render may record itself just after.
    expect(await waitFor(renderId, (row) => row.status !== "rendering")).toMatchObject({ status: "queued", attempts: 0 });

    const second = makeQueue();
    running.push(second);
    await second.start();
    expect(await waitFor(renderId, (row) => row.status === "done" || row.status === "failed")).toMatchObject({ status: "done", attempts: 1, frames: 300 });
    await second.stop();
  });

  // Skipped on PGlite on purpose: it belongs to one process, so a second worker process cannot
  // share it (a render left rendering by a dead worker is taken up in renders.test.ts on both
  // databases); .ci/run runs this in its PostgreSQL pass (npm run test:api).
  it.skipIf(!process.env.DATABASE_URL)("a worker process killed mid-render (SIGKILL): its lease runs out and another worker retries it", { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "testing/render-worker.ts"], { env: process.env, stdio: ["ignore", "pipe", "inherit"], detached: true });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker started") && resolve());
        child.once("exit", (code) => reject(new Error(`worker exited ${code}`)));
      });
      const renderId = await createRender();
      await waitFor(renderId, (row) => row.status === "rendering");
      process.kill(-child.pid!, "SIGKILL"); // the worker and its ffmpeg, mid-render
      expect(await rowOf(renderId)).toMatchObject({ status: "rendering", attempts: 1 });

      const survivor = makeQueue();
      running.push(survivor);
      await survivor.start();
      expect(await waitFor(renderId, (row) => row.status === "done" || row.status === "failed")).toMatchObject({ status: "done", attempts: 2 });
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
});
