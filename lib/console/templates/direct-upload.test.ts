import { describe, expect, test } from "vitest";
import { completionRequest, declaredFiles, formProblems, partTarget, pendingParts, resumeKey, sessionRequest, type PartEtags, type UploadSession } from "./direct-upload";
import { emptyDraft, type UploadDraft } from "./upload-draft";

const file = (name: string, size = 1, lastModified = 1, type = "") => new File(["x".repeat(size)], name, { lastModified, type });

function draft(change: Partial<UploadDraft> = {}): UploadDraft {
  return { ...emptyDraft(), name: " Weather ", files: { templateJson: file("data.json", 10, 1, "application/json"), assetFiles: [file("a.png", 3), file("b.png", 4)] }, ...change };
}

function session(change: Partial<UploadSession> = {}): UploadSession {
  return {
    id: "s1",
    status: "open",
    provider: "s3",
    expiresAt: "2026-11-27T10:00:00.000Z",
    partSize: 4,
    files: [
      { index: 0, role: "templateJson", name: "data.json", size: 10, type: "application/json", parts: [1, 2, 3].map((n) => ({ partNumber: n, size: n < 3 ? 4 : 2, url: `u0-${n}` })), uploadedParts: [] },
      { index: 1, role: "assetFiles", name: "a.png", size: 3, type: "application/octet-stream", parts: [{ partNumber: 1, size: 3, url: "u1-1" }], uploadedParts: [] },
      { index: 2, role: "assetFiles", name: "b.png", size: 4, type: "application/octet-stream", parts: [{ partNumber: 1, size: 4, url: "u2-1" }], uploadedParts: [] },
    ],
    ...change,
  };
}

describe("sessionRequest – POST …/templates/uploads' body", () => {
  test("the fields trimmed; the kind's files in form order (a video left over from Raster is not declared); a file without a type is octet-stream", () => {
    const body = sessionRequest(draft({ files: { templateJson: file("data.json", 10, 1, "application/json"), videoFile: file("v.mp4"), assetFiles: [file("a.png", 3)] } }));
    expect(body).toEqual({
      fields: { name: "Weather", version: "1.0", kind: "LottieStandalone" },
      files: [
        { role: "templateJson", name: "data.json", size: 10, type: "application/json" },
        { role: "assetFiles", name: "a.png", size: 3, type: "application/octet-stream" },
      ],
    });
  });
});

describe("formProblems – the session's refusals next to the form's fields", () => {
  const files = declaredFiles(draft());
  test.each([
    ["a field under fields.", { path: "fields.version", message: "must be major.minor" }, { path: "version", message: "must be major.minor" }],
    ["a single file's property", { path: "files.0.size", message: "must be at most 64 MB" }, { path: "templateJson", message: "size must be at most 64 MB" }],
    ["an asset, named by file", { path: "files.2.name", message: "is not allowed" }, { path: "assetFiles.1", message: "b.png: name is not allowed" }],
    ["an asset whose message names it already", { path: "files.2", message: "b.png was not sent whole" }, { path: "assetFiles.1", message: "b.png was not sent whole" }],
    ["a file index the draft has not", { path: "files.9", message: "unknown" }, { path: "files.9", message: "unknown" }],
    ["anything else", { path: "Idempotency-Key", message: "was used for another body" }, { path: "Idempotency-Key", message: "was used for another body" }],
  ])("%s", (_case, problem, expected) => {
    expect(formProblems([problem], files)).toEqual([expected]);
  });
});

describe("resumeKey – one per project and draft", () => {
  test("the same fields and files (name, size, date) → the same key; any change → another", () => {
    const key = resumeKey("p1", draft());
    expect(key).toMatch(/^reelbind:direct-upload:p1:[0-9a-f]{16}$/);
    expect(resumeKey("p1", draft())).toBe(key);
    expect(resumeKey("p2", draft())).not.toBe(key);
    expect(resumeKey("p1", draft({ version: "1.1" }))).not.toBe(key);
    expect(resumeKey("p1", draft({ files: { templateJson: file("data.json", 10, 2), assetFiles: [file("a.png", 3), file("b.png", 4)] } }))).not.toBe(key);
  });
});

describe("pendingParts and completionRequest", () => {
  test("only the parts without an ETag (kept by the client, or the local provider's uploadedParts) are sent; each at its offset", () => {
    const files = declaredFiles(draft());
    const etags: PartEtags = { 0: { 1: '"e01"' } };
    const open = session();
    // The local provider lists what it has (a part cut short is not there).
    open.files[2]!.uploadedParts = [{ partNumber: 1, size: 4 }];
    open.files[1]!.uploadedParts = [{ partNumber: 1, size: 2 }];
    const pending = pendingParts(open, files, etags);
    expect(pending.map(({ fileIndex, partNumber, start, size, url }) => ({ fileIndex, partNumber, start, size, url }))).toEqual([
      { fileIndex: 0, partNumber: 2, start: 4, size: 4, url: "u0-2" },
      { fileIndex: 0, partNumber: 3, start: 8, size: 2, url: "u0-3" },
      { fileIndex: 1, partNumber: 1, start: 0, size: 3, url: "u1-1" },
    ]);
    expect(pending[0]!.file).toBe(files[0]!.file);
    Object.assign(etags[0]!, { 2: '"e02"', 3: '"e03"' });
    Object.assign(etags[1]!, { 1: '"e11"' });
    expect(completionRequest(open, etags)).toEqual({
      files: [
        { index: 0, parts: [1, 2, 3].map((n) => ({ partNumber: n, etag: `"e0${n}"` })) },
        { index: 1, parts: [{ partNumber: 1, etag: '"e11"' }] },
        { index: 2, parts: [{ partNumber: 1, etag: "" }] },
      ],
    });
  });

  test.each(["local", "uploadthing"] as const)("a %s session completes with an empty body: the app knows its files", (provider) => {
    expect(completionRequest(session({ provider }), { 0: { 1: '"e01"' } })).toEqual({});
  });
});

describe("partTarget – where the browser PUTs a part", () => {
  test("the app's own part route → its path and query (same-origin under any host name); a presigned S3 URL → untouched", () => {
    expect(partTarget({ provider: "local" }, "http://localhost:3000/api/uploads/s/files/0/parts/1?expires=1&signature=x")).toBe("/api/uploads/s/files/0/parts/1?expires=1&signature=x");
    const presigned = "http://127.0.0.1:9000/bucket/uploads/s/0?partNumber=1&uploadId=u&X-Amz-Signature=x";
    expect(partTarget({ provider: "s3" }, presigned)).toBe(presigned);
  });
});
