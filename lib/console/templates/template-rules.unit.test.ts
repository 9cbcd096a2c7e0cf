import { describe, expect, test } from "vitest";
import { formatDateTime } from "../format";
import { formatBytes, shortSha } from "./format";
import { needsRestart, previewData, previewProblemsByKey } from "./preview-data";
import { archiveBlocker, comparePath, currentProduction, deleteBlocker, deployBlocker, templateFileList, totalSize, withDeployed, type TemplateJson } from "./template-rules";

const file = (name: string, size: number) => ({ name, size, sha256: "a".repeat(64), contentType: "image/png" });

function template(change: Partial<TemplateJson> = {}): TemplateJson {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    projectId: "00000000-0000-4000-8000-0000000000aa",
    name: "Weather",
    version: "1.0",
    kind: "LottieStandalone",
    status: "Testing",
    files: { templateJson: { ...file("data.json", 1000), contentType: "application/json" }, assetFiles: [file("img_0.jpg", 24), file("img_1.jpg", 1)] },
    fields: [],
    width: 720,
    height: 1280,
    createdAt: "2026-11-25T02:38:13.000Z",
    createdBy: null,
    deployedAt: null,
    scheduledDeployAt: null,
    archivedAt: null,
    everProduction: false,
    ...change,
  };
}

describe("lifecycle blockers – the API's refusals, as reasons on disabled buttons", () => {
  test.each([
    ["Testing", false, null, null, null],
    ["Production", true, "This template is already in Production.", "A Production template cannot be archived; deploy a newer version first.", "A template that was ever in Production cannot be deleted; archive it instead."],
    ["Previous", true, null, null, "A template that was ever in Production cannot be deleted; archive it instead."],
    ["Archived", false, "An Archived template cannot be deployed; upload it again as a new version.", "This template is already archived.", null],
  ] as const)("%s (everProduction %s)", (status, everProduction, deploy, archive, remove) => {
    const t = template({ status, everProduction });
    expect([deployBlocker(t), archiveBlocker(t), deleteBlocker(t)]).toEqual([deploy, archive, remove]);
  });
});

test("withDeployed – the template becomes Production, the current one Previous, the others stay", () => {
  const list = [template({ id: "t1" }), template({ id: "t2", status: "Production", everProduction: true }), template({ id: "t3", status: "Archived" })];
  const after = withDeployed(list, "t1", "2026-11-26T00:00:00.000Z");
  expect(after.map((t) => [t.id, t.status])).toEqual([["t1", "Production"], ["t2", "Previous"], ["t3", "Archived"]]);
  expect(after[0]).toMatchObject({ everProduction: true, deployedAt: "2026-11-26T00:00:00.000Z" });
  expect(currentProduction(list)?.id).toBe("t2");
  expect(currentProduction(list, "t2")).toBeNull();
});

test("templateFileList and totalSize – single files and assets", () => {
  expect(templateFileList(template()).map((f) => `${f.role}:${f.name}`)).toEqual(["templateJson:data.json", "assetFiles:img_0.jpg", "assetFiles:img_1.jpg"]);
  expect(totalSize(template())).toBe(1025);
});

test.each([
  [0, "0 B"],
  [1023, "1023 B"],
  [1536, "1.5 KB"],
  [150_000, "146 KB"],
  [262_144_000, "250 MB"],
])("formatBytes(%d) → %s", (bytes, text) => {
  expect(formatBytes(bytes)).toBe(text);
});

test("formatDateTime – UTC, the same text on the server and in any browser's time zone; shortSha", () => {
  expect(formatDateTime("2026-11-25T02:38:13.000Z")).toBe("25 Nov 2026, 02:38 UTC");
  expect(formatDateTime(null)).toBe("—");
  expect(shortSha("0123456789abcdef".repeat(4))).toBe("0123456789ab");
});

describe("preview data", () => {
  const fields = [
    { key: "City", type: "text" as const, default: "Paris", maxLength: 40 },
    { key: "Note", type: "text" as const, default: null, maxLength: null },
    { key: "avatar", type: "image" as const, default: null, maxLength: null },
  ];

  test("typed values, else defaults; a field with neither is left out", () => {
    expect(previewData(fields, {})).toEqual({ City: "Paris" });
    expect(previewData(fields, { City: "Oslo", Note: "hi", avatar: "data:image/png;base64,AA" })).toEqual({ City: "Oslo", Note: "hi", avatar: "data:image/png;base64,AA" });
    expect(previewData(fields, { City: "" })).toEqual({ City: "Paris" });
  });

  test("needsRestart – only when a key the player has is gone (SET_DATA cannot unset it)", () => {
    expect(needsRestart({ City: "Oslo" }, { City: "Paris" })).toBe(false);
    expect(needsRestart({ City: "Oslo" }, { City: "Oslo", Note: "x" })).toBe(false);
    expect(needsRestart({ City: "Oslo", Note: "x" }, { City: "Oslo" })).toBe(true);
  });

  test("previewProblemsByKey – data.<key> errors go to their field", () => {
    expect(previewProblemsByKey([{ path: "data.City", message: "must be a string" }, { path: "data", message: "must have at most 100 keys" }])).toEqual({
      byKey: { City: "must be a string" },
      other: ["data must have at most 100 keys"],
    });
  });
});

describe("comparePath – the compare page's address, both ids in the query when there is a pair", () => {
  const previous = template({ id: "00000000-0000-4000-8000-000000000001", version: "1.0", status: "Previous" });
  const current = template({ id: "00000000-0000-4000-8000-000000000002", version: "1.1", status: "Production" });
  const base = "/projects/p/templates/compare";

  test.each([
    ["the newest template against its previous version", [current, previous], undefined, `${base}?a=${previous.id}&b=${current.id}`],
    ["a focus without an older version: against Production", [current, previous], previous.id, `${base}?a=${current.id}&b=${previous.id}`],
    ["a template alone: the focus only", [current], current.id, `${base}?b=${current.id}`],
    ["no template: the page, which says there is nothing to compare", [], undefined, base],
  ])("%s", (_case, templates, focus, expected) => {
    expect(comparePath("p", templates, focus)).toBe(expected);
  });
});
