import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestProject, createTestProjectIn } from "@/testing/factories";
import { multipartBody } from "@/testing/multipart";
import {
  errorPaths,
  expectNothingLeft,
  lazyStream,
  list,
  okJson,
  problemOf,
  smallTemplateParts,
  snapshot,
  templateRowCounts,
  uncaughtDuring,
  uniqueParts,
  upload,
  uploadRaw,
  type TemplateJson,
} from "@/testing/template-api";

let organizationId: string;
let admin: string;

beforeAll(async () => {
  const { organization } = await createTestProject("Idempotency");
  organizationId = organization.id;
  admin = (await createTestMember("OrganizationAdmin", { organizationId })).token;
});

/** A fresh project per test: row counts then speak about this test only. */
async function newProject(): Promise<string> {
  return (await createTestProjectIn(organizationId, `Idempotency ${randomUUID()}`)).id;
}

const keyHeader = (key: string) => ({ "idempotency-key": key });

describe("POST /api/Projects/:id/templates/upload – Idempotency-Key", () => {
  it("POST …/templates/upload – same key, same content, new multipart boundary → the first 201 replayed, one template", async () => {
    const projectId = await newProject();
    const key = `upload-${randomUUID()}`;
    const parts = uniqueParts(smallTemplateParts("Replayed"));

    const firstResponse = await upload(admin, projectId, parts, keyHeader(key));
    expect(firstResponse.headers.get("idempotent-replayed")).toBeNull();
    const first = await okJson<TemplateJson>(firstResponse, 201);

    const before = await snapshot(projectId);
    // uploadRequest draws a new boundary for every request, so the raw bytes differ.
    expect(multipartBody(parts).contentType).not.toBe(multipartBody(parts).contentType);
    const secondResponse = await upload(admin, projectId, parts, keyHeader(key));
    expect(secondResponse.headers.get("idempotent-replayed")).toBe("true");
    expect(await okJson<TemplateJson>(secondResponse, 201)).toEqual(first);

    await expectNothingLeft(projectId, before);
    expect(await templateRowCounts(projectId)).toEqual({ templates: 1, files: 1 });
    const listed = await okJson<{ items: TemplateJson[] }>(await list(admin, projectId));
    expect(listed.items.map((t) => t.id)).toEqual([first.id]);
  });

  it("POST …/templates/upload – same key, different content → 422 at Idempotency-Key; the first upload is kept and still replays", async () => {
    const projectId = await newProject();
    const key = `upload-${randomUUID()}`;
    const parts = uniqueParts(smallTemplateParts("Original"));
    const first = await okJson<TemplateJson>(await upload(admin, projectId, parts, keyHeader(key)), 201);

    const before = await snapshot(projectId);
    for (const changed of [uniqueParts(smallTemplateParts("Original")), [...parts.filter((p) => p.name !== "name"), { name: "name", value: "Renamed" }]]) {
      const problem = await problemOf(await upload(admin, projectId, changed, keyHeader(key)), 422);
      expect(errorPaths(problem)).toEqual(["Idempotency-Key"]);
      await expectNothingLeft(projectId, before);
    }

    const replay = await upload(admin, projectId, parts, keyHeader(key));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await okJson<TemplateJson>(replay, 201)).toEqual(first);
  });

  it("POST …/templates/upload – same key while the first upload is still streaming → 409; the first then completes (201)", async () => {
    const projectId = await newProject();
    const key = `upload-${randomUUID()}`;
    const parts = uniqueParts(smallTemplateParts("Slow"));
    const { body, contentType } = multipartBody(parts);

    let started!: () => void;
    const firstChunkRead = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const restAllowed = new Promise<void>((resolve) => (finish = resolve));
    const half = Math.floor(body.length / 2);
    let pulls = 0;
    const slowBody = lazyStream(async () => {
      pulls += 1;
      if (pulls === 1) {
        started();
        return body.subarray(0, half);
      }
      if (pulls === 2) {
        await restAllowed;
        return body.subarray(half);
      }
      return null;
    });

    const firstPending = uploadRaw(admin, projectId, slowBody, contentType, keyHeader(key));
    await firstChunkRead;

    const concurrent = await problemOf(await upload(admin, projectId, parts, keyHeader(key)), 409);
    expect(concurrent.code).toBe("conflict");
    expect(await templateRowCounts(projectId)).toEqual({ templates: 0, files: 0 });

    finish();
    const firstResponse = await firstPending;
    expect(firstResponse.headers.get("idempotent-replayed")).toBeNull();
    const first = await okJson<TemplateJson>(firstResponse, 201);

    const retry = await upload(admin, projectId, parts, keyHeader(key));
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await okJson<TemplateJson>(retry, 201)).toEqual(first);
    expect((await templateRowCounts(projectId)).templates).toBe(1);
  });

  it("POST …/templates/upload – keys are scoped per project: the same key in another project creates a new template", async () => {
    const [home, away] = [await newProject(), await newProject()];
    const key = `upload-${randomUUID()}`;
    const parts = uniqueParts(smallTemplateParts("Scoped"));

    const inHome = await okJson<TemplateJson>(await upload(admin, home, parts, keyHeader(key)), 201);
    const awayResponse = await upload(admin, away, parts, keyHeader(key));
    expect(awayResponse.headers.get("idempotent-replayed")).toBeNull();
    const inAway = await okJson<TemplateJson>(awayResponse, 201);

    expect(inAway.id).not.toBe(inHome.id);
    expect(inAway.projectId).toBe(away);
    expect((await templateRowCounts(home)).templates).toBe(1);
    expect((await templateRowCounts(away)).templates).toBe(1);
  });

  it.each([
    { name: "empty", key: "" },
    { name: "256 characters", key: "k".repeat(256) },
    { name: "containing a space", key: "my key" },
    { name: "containing a tab", key: "my\tkey" },
    { name: "non-ASCII", key: "clé-1" },
  ])("POST /api/Projects/:id/templates/upload – Idempotency-Key $name → 422, nothing stored", async ({ key }) => {
    const projectId = await newProject();
    const before = await snapshot(projectId);
    const problem = await problemOf(await upload(admin, projectId, uniqueParts(smallTemplateParts()), keyHeader(key)), 422);
    expect(errorPaths(problem)).toEqual(["Idempotency-Key"]);
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – a 255-character key is accepted", async () => {
    const projectId = await newProject();
    const key = `${randomUUID()}${"k".repeat(255 - 36)}`;
    expect(key).toHaveLength(255);
    await okJson<TemplateJson>(await upload(admin, projectId, uniqueParts(smallTemplateParts()), keyHeader(key)), 201);
  });

  it("POST …/templates/upload – a first upload that fails (422) releases the key: the corrected retry succeeds, then replays", async () => {
    const projectId = await newProject();
    const key = `upload-${randomUUID()}`;
    const parts = uniqueParts(smallTemplateParts("Corrected"));

    const before = await snapshot(projectId);
    const failed = await problemOf(await upload(admin, projectId, parts.filter((p) => p.name !== "kind"), keyHeader(key)), 422);
    expect(errorPaths(failed)).toContain("kind");
    await expectNothingLeft(projectId, before);

    const retry = await upload(admin, projectId, parts, keyHeader(key));
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const created = await okJson<TemplateJson>(retry, 201);

    const again = await upload(admin, projectId, parts, keyHeader(key));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await okJson<TemplateJson>(again, 201)).toEqual(created);
    expect((await templateRowCounts(projectId)).templates).toBe(1);
  });

  it("POST …/templates/upload – a first upload whose client disconnects (400) releases the key", async () => {
    const projectId = await newProject();
    const key = `upload-${randomUUID()}`;
    const parts = uniqueParts(smallTemplateParts("Interrupted"));
    const { body, contentType } = multipartBody(parts);

    const before = await snapshot(projectId);
    let pulls = 0;
    const broken = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls += 1;
          if (pulls === 1) controller.enqueue(body.subarray(0, Math.floor(body.length / 2)));
          else controller.error(new Error("socket hang up"));
        },
      },
      { highWaterMark: 0 },
    );
    const { result, uncaught } = await uncaughtDuring(() => uploadRaw(admin, projectId, broken, contentType, keyHeader(key)));
    await problemOf(result, 400);
    expect(uncaught, "errors that escaped the request as uncaught exceptions").toEqual([]);
    await expectNothingLeft(projectId, before);

    const retry = await upload(admin, projectId, parts, keyHeader(key));
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    await okJson<TemplateJson>(retry, 201);
  });

  it("POST …/templates/upload – without a key, the same content twice makes two templates", async () => {
    const projectId = await newProject();
    const parts = uniqueParts(smallTemplateParts("Twice"));
    const first = await okJson<TemplateJson>(await upload(admin, projectId, parts), 201);
    const second = await okJson<TemplateJson>(await upload(admin, projectId, parts), 201);
    expect(second.id).not.toBe(first.id);
    expect(second.files.templateJson?.sha256).toBe(first.files.templateJson?.sha256);
  });
});
