import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { readJsonContent, sortFiles, type IncomingFile } from "./sort-files";
import { emptyDraft, type UploadDraft } from "./upload-draft";

const demoDir = "lib/bootstrap/demo-template/landscape";
const file = (name: string, body: string | Buffer = "x", type = "") => new File([new Uint8Array(Buffer.from(body))], name, { type });
const incoming = (path: string, body: string | Buffer = "x", type = ""): IncomingFile => {
  const f = file(path.slice(path.lastIndexOf("/") + 1), body, type);
  return { file: f, path, json: f.name.endsWith(".json") || type === "application/json" ? readJsonContent(typeof body === "string" ? body : body.toString("utf8")) : undefined };
};
const lines = (report: { path: string; outcome: string }[]) => report.map(({ path, outcome }) => `${path} → ${outcome}`);

/** The demo folder as a drop gives it: data.json, manifest.json, images/logo.png. */
const demoFolder = () => [
  incoming("landscape/data.json", readFileSync(`${demoDir}/data.json`, "utf8"), "application/json"),
  incoming("landscape/images/logo.png", readFileSync(`${demoDir}/images/logo.png`), "image/png"),
  incoming("landscape/manifest.json", readFileSync(`${demoDir}/manifest.json`, "utf8"), "application/json"),
];

describe("readJsonContent", () => {
  test.each([
    ["the demo's data.json", readFileSync(`${demoDir}/data.json`, "utf8"), { kind: "lottie", images: ["logo.png"] }],
    ["the demo's manifest.json", readFileSync(`${demoDir}/manifest.json`, "utf8"), { kind: "manifest" }],
    ["overlay settings", '{"version": 1, "fit": "cover"}', { kind: "overlay" }],
    ["a JSON array", "[1, 2]", { kind: "other" }],
    ["a Bodymovin data file (footage)", '{"city": "Paris"}', { kind: "other" }],
    ["not JSON", "{ nope", { kind: "unreadable" }],
  ])("%s", (_case, text, expected) => {
    expect(readJsonContent(text)).toEqual(expected);
  });
});

describe("sortFiles – several files or a folder", () => {
  test("the demo folder dropped on the Lottie field → each file in its own field, one line each", () => {
    const { draft, report } = sortFiles(emptyDraft(), demoFolder(), "templateJson");
    expect(draft.files.templateJson?.name).toBe("data.json");
    expect(draft.files.manifestJson?.name).toBe("manifest.json");
    expect(draft.files.assetFiles.map((f) => f.name)).toEqual(["logo.png"]);
    expect(lines(report)).toEqual(["landscape/data.json → Lottie JSON", "landscape/images/logo.png → Asset files", "landscape/manifest.json → Binding manifest"]);
  });

  test("files named otherwise are sorted by their content; a text file, an SVG, hidden files and a stray JSON are left out with the reason", () => {
    const files = [
      incoming("notes.txt", "hello", "text/plain"),
      incoming("bindings.json", readFileSync(`${demoDir}/manifest.json`, "utf8")),
      incoming("welcome.json", readFileSync(`${demoDir}/data.json`, "utf8")),
      incoming("icon.svg", "<svg/>", "image/svg+xml"),
      incoming(".DS_Store", "x"),
      incoming("images/footage_0.json", '{"city": "Paris"}'),
      incoming("fonts/Inter-Bold.ttf", Buffer.from([0, 1, 0, 0])),
    ];
    const { draft, report } = sortFiles(emptyDraft(), files);
    expect(lines(report)).toEqual([
      "notes.txt → ignored: not a template file",
      "bindings.json → Binding manifest",
      "welcome.json → Lottie JSON",
      "icon.svg → ignored: SVG is not accepted; export the image as PNG",
      ".DS_Store → ignored: a hidden file",
      "images/footage_0.json → ignored: a JSON file that is not a Lottie animation, a binding manifest or overlay settings",
      "fonts/Inter-Bold.ttf → Asset files",
    ]);
    expect([draft.files.templateJson?.name, draft.files.manifestJson?.name, draft.files.assetFiles.map((f) => f.name)]).toEqual(["welcome.json", "bindings.json", ["Inter-Bold.ttf"]]);
  });

  test("an MP4 makes the template Raster; its poster, overlay and overlay animation go to their fields", () => {
    const files = [
      incoming("promo/background.mp4", "....ftyp", "video/mp4"),
      incoming("promo/poster.png", "png", "image/png"),
      incoming("promo/overlay.json", '{"version": 1, "offsetSeconds": 2}'),
      incoming("promo/data.json", readFileSync(`${demoDir}/data.json`, "utf8")),
    ];
    const { draft, report } = sortFiles(emptyDraft(), files);
    expect(draft.kind).toBe("Raster");
    expect(lines(report)).toEqual([
      "promo/background.mp4 → Video (the kind is now Raster)",
      "promo/poster.png → Poster image",
      "promo/overlay.json → Overlay settings",
      "promo/data.json → Lottie overlay",
    ]);
  });

  test("an image named poster that the dropped animation loads is one of its assets", () => {
    const lottie = JSON.stringify({ v: "5.7.4", layers: [], assets: [{ id: "p", w: 8, h: 8, u: "images/", p: "poster.png", e: 0 }] });
    const { draft } = sortFiles(emptyDraft(), [incoming("data.json", lottie), incoming("images/poster.png", "png", "image/png")]);
    expect([draft.files.posterFile, draft.files.assetFiles.map((f) => f.name)]).toEqual([undefined, ["poster.png"]]);
  });

  test("two folders dropped together → the first file of a field wins, the others are named as left out", () => {
    const portrait = readFileSync("lib/bootstrap/demo-template/portrait/data.json", "utf8");
    const files = [...demoFolder(), incoming("portrait/data.json", portrait), incoming("portrait/images/logo.png", "png", "image/png")];
    const { draft, report } = sortFiles(emptyDraft(), files);
    expect(draft.files.templateJson).toBe(files[0]!.file);
    expect(lines(report).slice(3)).toEqual([
      "portrait/data.json → ignored: landscape/data.json is the Lottie JSON of this drop",
      "portrait/images/logo.png → ignored: landscape/images/logo.png is the asset named logo.png in this drop",
    ]);
  });

  test("a later drop replaces the single fields' earlier files and an asset of the same name, and keeps the other assets", () => {
    const before: UploadDraft = { ...emptyDraft(), files: { templateJson: file("old.json"), assetFiles: [file("logo.png"), file("other.png")] } };
    const { draft, report } = sortFiles(before, demoFolder());
    expect(draft.files.assetFiles.map((f) => f.name)).toEqual(["other.png", "logo.png"]);
    expect(lines(report)).toEqual([
      "landscape/data.json → Lottie JSON (replaces old.json)",
      "landscape/images/logo.png → Asset files (replaces the earlier logo.png)",
      "landscape/manifest.json → Binding manifest",
    ]);
    expect(before.files.assetFiles.map((f) => f.name)).toEqual(["logo.png", "other.png"]);
  });
});

describe("sortFiles – one file on one field", () => {
  test.each([
    ["a .txt on the Lottie field → refused, nothing changes", "templateJson", incoming("notes.txt", "hi", "text/plain"), "notes.txt → refused: Lottie JSON takes a .json file (not a template file)"],
    ["an SVG on the asset field → refused", "assetFiles", incoming("logo.svg", "<svg/>", "image/svg+xml"), "logo.svg → refused: Asset files takes images (PNG, JPEG, GIF, WebP) and fonts (TTF, OTF, WOFF, WOFF2) (SVG is not accepted; export the image as PNG)"],
  ] as const)("%s", (_case, zone, entry, line) => {
    const start = emptyDraft();
    const { draft, report } = sortFiles(start, [entry], zone);
    expect(draft).toBe(start);
    expect(lines(report)).toEqual([line]);
  });

  test.each([
    ["a JSON the zone takes stays there, whatever its content (the server explains it)", "templateJson", incoming("export.json", '{"hello": 1}'), "templateJson", "export.json → Lottie JSON"],
    ["a binding manifest dropped on the Lottie field goes to the manifest's", "templateJson", incoming("manifest.json", readFileSync(`${demoDir}/manifest.json`, "utf8")), "manifestJson", "manifest.json → Binding manifest"],
    ["an image dropped on the Lottie field goes to the assets", "templateJson", incoming("logo.png", "png", "image/png"), "assetFiles", "logo.png → Asset files"],
    ["an image named poster dropped on the assets stays an asset", "assetFiles", incoming("poster.png", "png", "image/png"), "assetFiles", "poster.png → Asset files"],
  ] as const)("%s", (_case, zone, entry, role, line) => {
    const { draft, report } = sortFiles(emptyDraft(), [entry], zone);
    const placed = role === "assetFiles" ? draft.files.assetFiles[0] : draft.files[role];
    expect(placed).toBe(entry.file);
    expect(lines(report)).toEqual([line]);
  });
});
