import { describe, expect, it } from "vitest";
import { compareTemplates, compareVersions, defaultComparison, type ComparedTemplate } from "./compare-templates";

const weatherCard = (): ComparedTemplate => ({
  kind: "LottieStandalone",
  width: 720,
  height: 1280,
  frameRate: 30,
  durationFrames: 360,
  files: [
    { role: "templateJson", size: 40_000 },
    { role: "manifestJson", size: 600 },
    { role: "assetFiles", size: 10_000 },
    { role: "assetFiles", size: 5_000 },
  ],
  fields: [
    { key: "City", type: "text", target: { layer: "City" }, default: "Paris", maxLength: 40 },
    { key: "Status", type: "text", target: { layer: "Status" }, default: "Sunny", maxLength: 40 },
    { key: "Tempreture", type: "text", target: { layer: "Tempreture" }, default: "20°", maxLength: 8 },
    { key: "avatar", type: "image", target: { asset: "image_0" }, default: null, maxLength: null },
  ],
  chapters: [
    { id: "intro", name: "Intro", startFrame: 0, endFrame: 120 },
    { id: "forecast", name: "Forecast", startFrame: 120, endFrame: 360 },
  ],
  ctas: [{ id: "details", name: "See the details", layer: "Status" }],
});

const summary = (rows: { id: string; change: string; changed: string[] }[]) => rows.map(({ id, change, changed }) => [id, change, changed]);

describe("compareTemplates", () => {
  it("identical templates: every fact, field, chapter and CTA is the same, nothing counted", () => {
    const comparison = compareTemplates(weatherCard(), weatherCard());
    expect(comparison.identical).toBe(true);
    expect(comparison.counts).toEqual({
      facts: 0,
      fields: { added: 0, removed: 0, changed: 0 },
      chapters: { added: 0, removed: 0, changed: 0 },
      ctas: { added: 0, removed: 0, changed: 0 },
    });
    expect(summary(comparison.fields)).toEqual([
      ["City", "same", []],
      ["Status", "same", []],
      ["Tempreture", "same", []],
      ["avatar", "same", []],
    ]);
    expect(comparison.chapters.map((row) => row.change)).toEqual(["same", "same"]);
    expect(comparison.ctas.map((row) => row.change)).toEqual(["same"]);
  });

  it("facts: the file roles either template has, sizes summed per role; a changed size, frame rate or duration is marked", () => {
    const b = { ...weatherCard(), width: 1080, height: 1920, frameRate: 25, durationFrames: 300, files: [{ role: "templateJson", size: 41_000 }, { role: "videoFile", size: 2_000_000 }] };
    const comparison = compareTemplates(weatherCard(), b);
    expect(comparison.facts).toEqual([
      { id: "kind", a: "LottieStandalone", b: "LottieStandalone", changed: false },
      { id: "dimensions", a: "720×1280", b: "1080×1920", changed: true },
      { id: "frameRate", a: 30, b: 25, changed: true },
      { id: "duration", a: 12, b: 12, changed: false },
      { id: "templateJson", a: 40_000, b: 41_000, changed: true },
      { id: "manifestJson", a: 600, b: null, changed: true },
      { id: "videoFile", a: null, b: 2_000_000, changed: true },
      { id: "assetFiles", a: 15_000, b: null, changed: true },
      { id: "totalBytes", a: 55_600, b: 2_041_000, changed: true },
    ]);
    expect(comparison.counts.facts).toBe(7);
    expect(comparison.identical).toBe(false);
  });

  it("facts: a template without an animation has no size, frame rate or duration", () => {
    const raster = { ...weatherCard(), kind: "Raster", width: null, height: null, frameRate: null, durationFrames: null };
    const facts = compareTemplates(raster, weatherCard()).facts;
    expect(facts.filter((fact) => ["kind", "dimensions", "frameRate", "duration"].includes(fact.id))).toEqual([
      { id: "kind", a: "Raster", b: "LottieStandalone", changed: true },
      { id: "dimensions", a: null, b: "720×1280", changed: true },
      { id: "frameRate", a: null, b: 30, changed: true },
      { id: "duration", a: null, b: 12, changed: true },
    ]);
  });

  it("fields: added (B only), removed (A only, where it stood in A), changed (naming each property), same", () => {
    const a = weatherCard();
    const b: ComparedTemplate = {
      ...weatherCard(),
      fields: [
        { key: "City", type: "text", target: { layer: "City" }, default: "Lyon", maxLength: 20 },
        { key: "Tempreture", type: "text", target: { slot: "temperature" }, default: "20°", maxLength: 8, strict: true },
        { key: "avatar", type: "image", target: { asset: "image_0" }, default: null, maxLength: null },
        { key: "firstName", type: "text", target: { layer: "Name" }, default: null, maxLength: 30 },
      ],
    };
    const comparison = compareTemplates(a, b);
    expect(summary(comparison.fields)).toEqual([
      ["City", "changed", ["default", "maxLength"]],
      ["Status", "removed", []],
      ["Tempreture", "changed", ["target", "strict"]],
      ["avatar", "same", []],
      ["firstName", "added", []],
    ]);
    const status = comparison.fields[1]!;
    expect(status.a).toEqual(a.fields[1]);
    expect(status.b).toBeNull();
    const added = comparison.fields[4]!;
    expect(added.a).toBeNull();
    expect(added.b).toEqual(b.fields[3]);
    expect(comparison.counts.fields).toEqual({ added: 1, removed: 1, changed: 2 });
    expect(comparison.identical).toBe(false);
  });

  it("fields: a field whose type changes is changed, not removed and added; removed fields before any kept one come first", () => {
    const a: ComparedTemplate = {
      ...weatherCard(),
      fields: [
        { key: "logo", type: "image", target: { asset: "image_1" }, default: null, maxLength: null },
        { key: "intro", type: "text", target: { layer: "Intro" }, default: null, maxLength: null },
        { key: "City", type: "text", target: { slot: "city" }, default: null, maxLength: null },
      ],
    };
    const b: ComparedTemplate = { ...weatherCard(), fields: [{ key: "City", type: "image", target: { slot: "city" }, default: null, maxLength: null }] };
    expect(summary(compareTemplates(a, b).fields)).toEqual([
      ["logo", "removed", []],
      ["intro", "removed", []],
      ["City", "changed", ["type"]],
    ]);
  });

  it("chapters: matched by id; a renamed or retimed chapter is changed, a new id added, a missing one removed", () => {
    const b: ComparedTemplate = {
      ...weatherCard(),
      chapters: [
        { id: "intro", name: "Welcome", startFrame: 0, endFrame: 90 },
        { id: "outro", name: "Outro", startFrame: 300, endFrame: 360 },
      ],
    };
    const comparison = compareTemplates(weatherCard(), b);
    expect(summary(comparison.chapters)).toEqual([
      ["intro", "changed", ["name", "endFrame"]],
      ["forecast", "removed", []],
      ["outro", "added", []],
    ]);
    expect(comparison.counts.chapters).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(comparison.counts.fields).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  it("CTAs: matched by id; another layer or name is changed; added and removed", () => {
    const a: ComparedTemplate = { ...weatherCard(), ctas: [{ id: "details", name: "See the details", layer: "Status" }, { id: "book", name: "Book", layer: "City" }] };
    const b: ComparedTemplate = { ...weatherCard(), ctas: [{ id: "details", name: "Details", layer: "City" }, { id: "call", name: "Call us", layer: "Status" }] };
    const comparison = compareTemplates(a, b);
    expect(summary(comparison.ctas)).toEqual([
      ["details", "changed", ["name", "layer"]],
      ["book", "removed", []],
      ["call", "added", []],
    ]);
    expect(comparison.counts.ctas).toEqual({ added: 1, removed: 1, changed: 1 });
  });

  it("a template with no fields, chapters or CTAs against one with them: all added; the other way round, all removed", () => {
    const empty: ComparedTemplate = { ...weatherCard(), fields: [], chapters: [], ctas: [] };
    const added = compareTemplates(empty, weatherCard());
    expect(added.counts).toMatchObject({ fields: { added: 4, removed: 0, changed: 0 }, chapters: { added: 2 }, ctas: { added: 1 } });
    const removed = compareTemplates(weatherCard(), empty);
    expect(removed.counts).toMatchObject({ fields: { added: 0, removed: 4, changed: 0 }, chapters: { removed: 2 }, ctas: { removed: 1 } });
    expect(removed.fields.map((row) => row.id)).toEqual(["City", "Status", "Tempreture", "avatar"]);
  });
});

describe("compareVersions", () => {
  it.each([
    ["1.0", "1.1", -1],
    ["1.9", "1.10", -1],
    ["2.0", "1.99", 1],
    ["3.4", "3.4", 0],
  ])("%s against %s", (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

describe("defaultComparison", () => {
  const t = (id: string, name: string, version: string, status = "Testing") => ({ id, name, version, status });
  // Newest first, as the template list answers.
  const templates = [
    t("card-2.0", "Card", "2.0"),
    t("other-1.0", "Other", "1.0", "Production"),
    t("card-1.10", "Card", "1.10", "Previous"),
    t("card-1.9", "Card", "1.9", "Archived"),
    t("solo-1.0", "Solo", "1.0"),
  ];
  const ids = (pair: { a: { id: string }; b: { id: string } } | null) => (pair ? [pair.a.id, pair.b.id] : null);

  it.each([
    ["the newest template, against its previous version", undefined, ["card-1.10", "card-2.0"]],
    ["a version, against the highest lower version of its name", "card-1.10", ["card-1.9", "card-1.10"]],
    ["the oldest version, against Production when there is one", "card-1.9", ["other-1.0", "card-1.9"]],
    ["a template without versions, against Production", "solo-1.0", ["other-1.0", "solo-1.0"]],
    ["the Production template without versions, against the newest other one", "other-1.0", ["card-2.0", "other-1.0"]],
    ["an id not in the list", "nope", null],
  ])("%s", (_case, focus, expected) => {
    expect(ids(defaultComparison(templates, focus))).toEqual(expected);
  });

  it("the oldest version without a Production template: against the next version of its name", () => {
    const list = [t("b", "Card", "1.1"), t("x", "Other", "1.0"), t("a", "Card", "1.0")];
    expect(ids(defaultComparison(list, "a"))).toEqual(["a", "b"]);
  });

  it("a project with one template has nothing to compare", () => {
    expect(defaultComparison([t("only", "Card", "1.0")])).toBeNull();
    expect(defaultComparison([])).toBeNull();
  });
});
