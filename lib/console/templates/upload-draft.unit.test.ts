import { describe, expect, test } from "vitest";
import { attemptFor, buildUploadForm, draftFingerprint, emptyDraft, groupProblems, labelsFor, missingFields, newIdempotencyKey, type UploadDraft } from "./upload-draft";

const file = (name: string, body = "x", lastModified = 1) => new File([body], name, { lastModified });

function draft(change: Partial<UploadDraft> = {}): UploadDraft {
  return { ...emptyDraft(), name: "Weather", files: { templateJson: file("data.json"), assetFiles: [file("img_0.jpg")] }, ...change };
}

describe("buildUploadForm", () => {
  test("LottieStandalone – text fields first, then only the kind's files (a Raster video left over from switching kinds is not sent)", () => {
    const form = buildUploadForm(draft({ files: { templateJson: file("data.json"), videoFile: file("v.mp4"), assetFiles: [file("a.png"), file("b.png")] } }));
    expect([...form.keys()]).toEqual(["name", "version", "kind", "templateJson", "assetFiles", "assetFiles"]);
    expect(form.get("kind")).toBe("LottieStandalone");
    expect((form.get("templateJson") as File).name).toBe("data.json");
  });

  test("Raster – the video, the overlay animation and its settings; name and version trimmed", () => {
    const form = buildUploadForm(
      draft({ name: "  Promo ", version: " 2.1 ", kind: "Raster", files: { videoFile: file("v.mp4"), templateJson: file("o.json"), overlayJson: file("fit.json"), assetFiles: [] } }),
    );
    expect([...form.keys()]).toEqual(["name", "version", "kind", "videoFile", "templateJson", "overlayJson"]);
    expect([form.get("name"), form.get("version")]).toEqual(["Promo", "2.1"]);
  });
});

describe("missingFields", () => {
  test.each([
    ["a complete LottieStandalone draft", draft(), []],
    ["no name", draft({ name: " " }), ["name"]],
    ["LottieStandalone without its Lottie JSON", draft({ files: { assetFiles: [] } }), ["templateJson"]],
    ["Raster without its video", draft({ kind: "Raster" }), ["videoFile"]],
  ])("%s", (_case, input, paths) => {
    expect(missingFields(input).map((problem) => problem.path)).toEqual(paths);
  });
});

describe("attemptFor – one Idempotency-Key per submission", () => {
  let n = 0;
  const mint = () => `key-${++n}`;

  test("the same draft again is a retry: same key", () => {
    const first = attemptFor(draft(), null, mint);
    expect(attemptFor(draft(), first, mint)).toBe(first);
  });

  test.each([
    ["another name", draft({ name: "Weather 2" })],
    ["another version", draft({ version: "1.1" })],
    ["another file (same name, other size)", draft({ files: { templateJson: file("data.json", "xy"), assetFiles: [file("img_0.jpg")] } })],
    ["the same file chosen again after it changed on disk", draft({ files: { templateJson: file("data.json", "x", 2), assetFiles: [file("img_0.jpg")] } })],
    ["one more asset", draft({ files: { templateJson: file("data.json"), assetFiles: [file("img_0.jpg"), file("img_1.jpg")] } })],
  ])("%s is a new submission: new key", (_case, changed) => {
    const first = attemptFor(draft(), null, mint);
    expect(attemptFor(changed, first, mint).key).not.toBe(first.key);
  });

  test("files of the other kind, which are not sent, do not make a new submission", () => {
    const withVideo = draft({ files: { templateJson: file("data.json"), videoFile: file("v.mp4"), assetFiles: [file("img_0.jpg")] } });
    expect(draftFingerprint(withVideo)).toBe(draftFingerprint(draft()));
  });

  test("newIdempotencyKey – 128 random bits in hex, without crypto.randomUUID (plain-http consoles)", () => {
    expect(newIdempotencyKey((bytes) => bytes.fill(171))).toBe(`console-upload-${"ab".repeat(16)}`);
    expect(newIdempotencyKey()).toMatch(/^console-upload-[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });
});

describe("groupProblems – the API's errors next to their fields", () => {
  test("own field, nested manifest path, asset index, and paths the form does not show", () => {
    const grouped = groupProblems(
      [
        { path: "version", message: "must be major.minor, e.g. 1.0 or 2.13" },
        { path: "manifestJson.fields.0.target.layer", message: 'no text layer named "Nope" in templateJson' },
        { path: "assetFiles.1", message: "x.svg must be an image (PNG, JPEG, GIF, WebP) or a font (TTF, OTF, WOFF, WOFF2)" },
        { path: "Idempotency-Key", message: "was already used for an upload with different content" },
        { path: "overlayJson", message: "is only for Raster templates" },
        { path: "", message: "too many fields" },
      ],
      labelsFor("LottieStandalone"),
    );
    expect(grouped.byField).toEqual({
      version: ["Version must be major.minor, e.g. 1.0 or 2.13"],
      manifestJson: ['fields.0.target.layer: no text layer named "Nope" in templateJson'],
      assetFiles: ["x.svg must be an image (PNG, JPEG, GIF, WebP) or a font (TTF, OTF, WOFF, WOFF2)"],
    });
    expect(grouped.other).toEqual(["Idempotency-Key was already used for an upload with different content", "overlayJson is only for Raster templates", "too many fields"]);
  });

  test("a Raster form calls its Lottie file the overlay", () => {
    expect(groupProblems([{ path: "templateJson", message: "is not valid JSON" }], labelsFor("Raster")).byField.templateJson).toEqual(["Lottie overlay is not valid JSON"]);
  });
});
