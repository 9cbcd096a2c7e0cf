import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { imageAsset, imageLayer, loadLottieFixture, makeLottie, precompLayer, solidLayer, textLayer } from "@/testing/fixtures/lottie-builders";
import type { Lottie } from "@/shared/templates/lottie";
import { conventionKey } from "@/shared/templates/bindings";
import type { BindingManifest } from "@/shared/templates/manifest";
import { chaptersOf, fieldsOf, parseManifestJson, validateManifest } from "./manifest";

const shapeLayer = { ddd: 0, ty: 4, nm: "Logo", ks: {}, shapes: [], ip: 0, op: 150, st: 0 };

function template(): Lottie {
  return makeLottie({
    op: 150,
    layers: [textLayer("Name", "Alex", { op: 150 }), shapeLayer, solidLayer("CTA", "#ff0000", 100, 40, { op: 150 }), imageLayer("avatar", "image_0"), precompLayer("card", "comp_0", 320, 180)],
    assets: [
      imageAsset("image_0", "avatar.png", 64, 64),
      { id: "comp_0", layers: [textLayer("Greeting", "Hello", { op: 150 })] },
      { id: "footage_0", u: "", p: "data.json", e: 0, t: 3 },
    ],
    slots: {
      headline: { p: { k: [{ s: { t: "Big news", s: 30, f: "Arial-Regular" }, t: 0 }] } },
      logo: { p: { w: 64, h: 64, u: "images/", p: "logo.png", e: 0 } },
      accent: { p: { a: 0, k: [1, 0, 0, 1] } },
    },
    markers: [
      { cm: "Intro", tm: 0, dr: 30 },
      { cm: "Main part", tm: 30, dr: 0 },
      { cm: "Intro", tm: 100, dr: 20 },
    ],
  });
}

/** The manifest of docs/design.md, Management API, bound to the synthetic template. */
function designManifest(): BindingManifest {
  return {
    version: 1,
    fields: [
      { key: "firstName", type: "text", target: { layer: "Name" }, default: "there", maxLength: 40 },
      { key: "avatar", type: "image", target: { asset: "image_0" } },
    ],
    chapters: [{ id: "intro", name: "Intro", startFrame: 0, endFrame: 90 }],
    ctas: [{ id: "book", name: "Book a demo", layer: "CTA" }],
    posterFrame: 120,
  };
}

const withField = (field: Record<string, unknown>) => ({ version: 1, fields: [field] });
const textField = (extra: Record<string, unknown> = {}) => ({ key: "firstName", type: "text", target: { layer: "Name" }, ...extra });

describe("validateManifest – schema", () => {
  it("accepts the example of docs/design.md", () => {
    const result = validateManifest(designManifest(), template());
    expect(result).toEqual({ ok: true, manifest: designManifest() });
  });

  it("accepts a minimal manifest and slot targets", () => {
    const manifest = {
      version: 1,
      fields: [
        { key: "headline", type: "text", target: { slot: "headline" } },
        { key: "logo", type: "image", target: { slot: "logo" }, default: "avatar.png" },
        { key: "greeting", type: "text", target: { layer: "Greeting" } },
      ],
    };
    expect(validateManifest(manifest, template())).toMatchObject({ ok: true });
  });

  it.each([
    ["not an object", "manifest", "", "must be an object"],
    ["version 2", { version: 2, fields: [] }, "version", "must be 1"],
    ["missing version", { fields: [] }, "version", "is required"],
    ["missing fields", { version: 1 }, "fields", "is required"],
    ["fields not an array", { version: 1, fields: {} }, "fields", "must be an array"],
    ["unknown top-level member", { version: 1, fields: [], title: "x" }, "title", "is not a manifest field"],
    ["key starting with a digit", withField(textField({ key: "1st" })), "fields.0.key", "must be letters, digits and underscores, not starting with a digit"],
    ["key with a dash", withField(textField({ key: "first-name" })), "fields.0.key", "must be letters, digits and underscores"],
    ["key too long", withField(textField({ key: "k".repeat(65) })), "fields.0.key", "must be at most 64 characters"],
    ["missing key", withField({ type: "text", target: { layer: "Name" } }), "fields.0.key", "is required"],
    ["unknown type", withField(textField({ type: "video" })), "fields.0.type", 'must be one of "text", "image"'],
    ["missing target", withField({ key: "a", type: "text" }), "fields.0.target", "is required"],
    ["empty target", withField(textField({ target: {} })), "fields.0.target", 'must name exactly one of "layer", "asset" or "slot"'],
    ["two targets", withField(textField({ target: { layer: "Name", slot: "headline" } })), "fields.0.target", "must name exactly one"],
    ["unknown target member", withField(textField({ target: { comp: "x" } })), "fields.0.target.comp", "is not a manifest field"],
    ["empty layer name", withField(textField({ target: { layer: "" } })), "fields.0.target.layer", "must not be empty"],
    ["layer name too long", withField(textField({ target: { layer: "L".repeat(256) } })), "fields.0.target.layer", "must be at most 255 characters"],
    ["default not a string", withField(textField({ default: 5 })), "fields.0.default", "must be a string"],
    ["text default too long", withField(textField({ default: "d".repeat(2001) })), "fields.0.default", "must be at most 2000 characters"],
    ["maxLength 0", withField(textField({ maxLength: 0 })), "fields.0.maxLength", "must be at least 1"],
    ["maxLength fractional", withField(textField({ maxLength: 2.5 })), "fields.0.maxLength", "must be an integer"],
    ["maxLength on an image field", withField({ key: "a", type: "image", target: { asset: "image_0" }, maxLength: 4 }), "fields.0.maxLength", "is only allowed for text fields"],
    ["image default too long", withField({ key: "a", type: "image", target: { asset: "image_0" }, default: `${"x".repeat(256)}.png` }), "fields.0.default", "must be at most 255 characters"],
    ["unknown field member", withField(textField({ label: "First name" })), "fields.0.label", "is not a manifest field"],
    ["chapter without id", { version: 1, fields: [], chapters: [{ name: "A", startFrame: 0, endFrame: 10 }] }, "chapters.0.id", "is required"],
    ["chapter id with spaces", { version: 1, fields: [], chapters: [{ id: "a b", name: "A", startFrame: 0, endFrame: 10 }] }, "chapters.0.id", "must be letters, digits, '_', '.' and '-'"],
    ["chapter with empty name", { version: 1, fields: [], chapters: [{ id: "a", name: "", startFrame: 0, endFrame: 10 }] }, "chapters.0.name", "must not be empty"],
    ["chapter frame a string", { version: 1, fields: [], chapters: [{ id: "a", name: "A", startFrame: "0", endFrame: 10 }] }, "chapters.0.startFrame", "must be a number"],
    ["cta without layer", { version: 1, fields: [], ctas: [{ id: "book", name: "Book" }] }, "ctas.0.layer", "is required"],
    ["posterFrame a string", { version: 1, fields: [], posterFrame: "120" }, "posterFrame", "must be a number"],
    ["too many fields", { version: 1, fields: Array.from({ length: 201 }, (_, i) => textField({ key: `k${i}` })) }, "fields", "must have at most 200 entries"],
  ])("%s → %s: %s", (_, manifest, path, message) => {
    const result = validateManifest(manifest, template());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("lists every schema error at once", () => {
    const result = validateManifest({ version: 3, fields: [textField({ key: "" }), textField({ type: "x" })], extra: true }, template());
    expect(result.ok || result.errors.map((e) => e.path).sort()).toEqual(["extra", "fields.0.key", "fields.1.type", "version"]);
  });
});

describe("validateManifest – cross-checks against templateJson", () => {
  const manifestWith = (change: (manifest: BindingManifest) => void) => {
    const manifest = designManifest();
    change(manifest);
    return manifest;
  };

  it.each<[string, (m: BindingManifest) => void, string, string]>([
    ["text layer missing", (m) => (m.fields[0]!.target = { layer: "Citty" }), "fields.0.target.layer", 'no text layer named "Citty" in templateJson'],
    ["layer is not a text layer", (m) => (m.fields[0]!.target = { layer: "Logo" }), "fields.0.target.layer", 'layer "Logo" is a shape layer, not a text layer'],
    ["image field on a layer", (m) => (m.fields[1]!.target = { layer: "avatar" }), "fields.1.target.layer", 'an image field targets an image asset ({"asset": id}) or an image slot, not a layer'],
    ["text field on an asset", (m) => (m.fields[0]!.target = { asset: "image_0" }), "fields.0.target.asset", 'a text field targets a text layer ({"layer": name}) or a text slot, not an asset'],
    ["image asset missing", (m) => (m.fields[1]!.target = { asset: "image_9" }), "fields.1.target.asset", 'no image asset with id "image_9" in templateJson'],
    ["asset is a precomposition", (m) => (m.fields[1]!.target = { asset: "comp_0" }), "fields.1.target.asset", 'asset "comp_0" is not an image (it is a precomposition)'],
    ["asset is a data source", (m) => (m.fields[1]!.target = { asset: "footage_0" }), "fields.1.target.asset", 'asset "footage_0" is not an image (it is another kind of asset)'],
    ["slot missing", (m) => (m.fields[0]!.target = { slot: "subtitle" }), "fields.0.target.slot", 'no slot "subtitle" in templateJson'],
    ["text field on an image slot", (m) => (m.fields[0]!.target = { slot: "logo" }), "fields.0.target.slot", 'slot "logo" does not hold text'],
    ["image field on a colour slot", (m) => (m.fields[1]!.target = { slot: "accent" }), "fields.1.target.slot", 'slot "accent" does not hold an image'],
    ["duplicate key", (m) => (m.fields[1] = { key: "firstName", type: "text", target: { layer: "Greeting" } }), "fields.1.key", 'duplicates fields.0.key ("firstName")'],
    ["two fields on one target", (m) => (m.fields[1] = { key: "nickname", type: "text", target: { layer: "Name" } }), "fields.1.target", 'is already bound by fields.0 ("firstName")'],
    ["default longer than maxLength", (m) => (m.fields[0]!.maxLength = 3), "fields.0.default", "is longer than maxLength (3)"],
    ["image default not a template image", (m) => (m.fields[1]!.default = "missing.png"), "fields.1.default", 'no image file named "missing.png" in templateJson'],
    ["chapter starts before ip", (m) => (m.chapters![0]!.startFrame = -5), "chapters.0.startFrame", "must be within the animation's frames [0, 150]"],
    ["chapter ends after op", (m) => (m.chapters![0]!.endFrame = 151), "chapters.0.endFrame", "must be within the animation's frames [0, 150]"],
    ["chapter start not before end", (m) => (m.chapters![0]!.endFrame = 0), "chapters.0.endFrame", "must be greater than startFrame (0)"],
    ["duplicate chapter id", (m) => m.chapters!.push({ id: "intro", name: "Again", startFrame: 90, endFrame: 150 }), "chapters.1.id", 'duplicates chapters.0.id ("intro")'],
    ["cta layer missing", (m) => (m.ctas![0]!.layer = "Buy"), "ctas.0.layer", 'no layer named "Buy" in templateJson'],
    ["duplicate cta id", (m) => m.ctas!.push({ id: "book", name: "Again", layer: "Logo" }), "ctas.1.id", 'duplicates ctas.0.id ("book")'],
    ["posterFrame at op", (m) => (m.posterFrame = 150), "posterFrame", "must be a frame of the animation, from 0 up to (not including) 150"],
    ["posterFrame before ip", (m) => (m.posterFrame = -1), "posterFrame", "must be a frame of the animation, from 0 up to (not including) 150"],
  ])("%s", (_, change, path, message) => {
    const result = validateManifest(manifestWith(change), template());
    expect(result).toEqual({ ok: false, errors: [{ path, message }] });
  });

  it("a text layer inside a precomposition and a CTA on any layer type pass", () => {
    const manifest = manifestWith((m) => {
      m.fields[0]!.target = { layer: "Greeting" };
      m.ctas![0]!.layer = "Logo";
    });
    expect(validateManifest(manifest, template()).ok).toBe(true);
  });

  it("weather card: City/Status/Tempreture and image_0", () => {
    const manifest = {
      version: 1,
      fields: [
        { key: "city", type: "text", target: { layer: "City" } },
        { key: "status", type: "text", target: { layer: "Status" } },
        { key: "temperature", type: "text", target: { layer: "Tempreture" } },
        { key: "profile", type: "image", target: { asset: "image_0" }, default: "img_1.jpg" },
      ],
      posterFrame: 180,
    };
    expect(validateManifest(manifest, loadLottieFixture("weatherCard")).ok).toBe(true);
  });
});

describe("validateManifest – formats and cues", () => {
  const check = (manifest: Record<string, unknown>) => {
    const result = validateManifest(manifest, template());
    return result.ok ? "ok" : result.errors;
  };
  const withCues = (cues: unknown[]) => ({ ...designManifest(), cues });

  it("accepts every format and both kinds of cue span", () => {
    const formats = [
      { type: "date", dateStyle: "long" },
      { type: "number", maximumFractionDigits: 2 },
      { type: "currency", currency: "EUR" },
      { type: "percent" },
      { type: "list", listType: "disjunction" },
    ];
    for (const format of formats) expect(check(withField(textField({ format })))).toBe("ok");
    const cues = [
      { kind: "captions", text: "Hi {{firstName}}", chapter: "intro" },
      { kind: "descriptions", text: "A card with {{firstName|your}} name", startFrame: 10, endFrame: 40 },
    ];
    expect(check(withCues(cues))).toBe("ok");
  });

  it("names the option, the currency code and the format type that are wrong", () => {
    expect(check(withField(textField({ format: { type: "money" } })))).toEqual([
      { path: "fields.0.format.type", message: 'must be one of "date", "number", "currency", "percent", "list"' },
    ]);
    expect(check(withField(textField({ format: { type: "date", currency: "EUR" } })))).toEqual([
      { path: "fields.0.format.currency", message: "is not an option of this format" },
    ]);
    expect(check(withField(textField({ format: { type: "currency", currency: "eur" } })))).toEqual([
      { path: "fields.0.format.currency", message: "must be an ISO 4217 currency code in capitals, e.g. EUR" },
    ]);
  });

  it("a currency takes exactly one of currency and currencyField, and the field must exist", () => {
    expect(check(withField(textField({ format: { type: "currency" } })))).toEqual([
      { path: "fields.0.format", message: "must name exactly one of currency (an ISO 4217 code) or currencyField" },
    ]);
    expect(check(withField(textField({ format: { type: "currency", currencyField: "currency" } })))).toEqual([
      { path: "fields.0.format.currencyField", message: 'no field with key "currency"' },
    ]);
  });

  it("a cue spans a chapter that exists, or a frame range within the animation, not both", () => {
    expect(check(withCues([{ kind: "captions", text: "Hi", chapter: "outro" }]))).toEqual([{ path: "cues.0.chapter", message: 'no chapter with id "outro"' }]);
    expect(check(withCues([{ kind: "captions", text: "Hi", startFrame: 10 }]))).toEqual([{ path: "cues.0.endFrame", message: "is required" }]);
    expect(check(withCues([{ kind: "captions", text: "Hi", chapter: "intro", startFrame: 0, endFrame: 10 }]))).toEqual([
      { path: "cues.0.startFrame", message: "is not allowed with chapter (a cue spans a chapter or a frame range)" },
      { path: "cues.0.endFrame", message: "is not allowed with chapter (a cue spans a chapter or a frame range)" },
    ]);
    expect(check(withCues([{ kind: "descriptions", text: "Hi", startFrame: 40, endFrame: 20 }]))).toEqual([
      { path: "cues.0.endFrame", message: "must be greater than startFrame (40)" },
    ]);
    expect(check(withCues([{ kind: "subtitles", text: "Hi", chapter: "intro" }]))).toEqual([
      { path: "cues.0.kind", message: 'must be one of "captions", "descriptions"' },
    ]);
  });
});

describe("parseManifestJson", () => {
  it("parses and validates manifestJson text", () => {
    expect(parseManifestJson(JSON.stringify(designManifest()), template())).toEqual(designManifest());
  });

  it.each([
    ["not JSON", "{", "manifestJson", "is not valid JSON"],
    ["too deep", `{"version":1,"fields":${"[".repeat(20)}${"]".repeat(20)}}`, "manifestJson", "deeper than 16 levels"],
    ["a cross-check", JSON.stringify({ version: 1, fields: [textField({ target: { layer: "Citty" } })] }), "manifestJson.fields.0.target.layer", 'no text layer named "Citty"'],
  ])("%s → ValidationError at %s", (_, text, path, message) => {
    try {
      parseManifestJson(text, template());
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual([{ path, message: expect.stringContaining(message) }]);
    }
  });
});

describe("fieldsOf", () => {
  it("from a manifest: the manifest default, else the template's text; image default null", () => {
    const manifest: BindingManifest = {
      version: 1,
      fields: [
        { key: "firstName", type: "text", target: { layer: "Name" }, default: "there", maxLength: 40 },
        { key: "greeting", type: "text", target: { layer: "Greeting" } },
        { key: "headline", type: "text", target: { slot: "headline" } },
        { key: "avatar", type: "image", target: { asset: "image_0" } },
        { key: "logo", type: "image", target: { slot: "logo" }, default: "avatar.png" },
      ],
    };
    expect(fieldsOf(manifest, template())).toEqual([
      { key: "firstName", type: "text", default: "there", maxLength: 40 },
      { key: "greeting", type: "text", default: "Hello", maxLength: null },
      { key: "headline", type: "text", default: "Big news", maxLength: null },
      { key: "avatar", type: "image", default: null, maxLength: null },
      { key: "logo", type: "image", default: "avatar.png", maxLength: null },
    ]);
  });

  it("without a manifest: one text field per {{key}} layer, once per key", () => {
    const lottie = makeLottie({
      layers: [textLayer("{{firstName}}", "Alex"), textLayer("{{ city }}", "Lisbon"), textLayer("{{firstName}}", "Again"), textLayer("{{not a key}}", "x"), textLayer("Title", "Hi")],
    });
    expect(fieldsOf(null, lottie)).toEqual([
      { key: "firstName", type: "text", default: "Alex", maxLength: null },
      { key: "city", type: "text", default: "Lisbon", maxLength: null },
    ]);
  });

  it("without a manifest or {{key}} layers: no fields (weather card)", () => {
    expect(fieldsOf(null, loadLottieFixture("weatherCard"))).toEqual([]);
  });

  it.each([
    ["{{firstName}}", "firstName"],
    ["{{ first_name }}", "first_name"],
    ["{{1st}}", null],
    ["{firstName}", null],
    ["Name {{firstName}}", null],
  ])("conventionKey(%j) = %j", (name, key) => {
    expect(conventionKey(name)).toBe(key);
  });
});

describe("chaptersOf", () => {
  it("the manifest's chapters when it has them", () => {
    expect(chaptersOf(designManifest(), template())).toEqual([{ id: "intro", name: "Intro", startFrame: 0, endFrame: 90 }]);
  });

  it("else the Lottie markers: a marker without duration runs to the next one; ids unique", () => {
    expect(chaptersOf(null, template())).toEqual([
      { id: "intro", name: "Intro", startFrame: 0, endFrame: 30 },
      { id: "main-part", name: "Main part", startFrame: 30, endFrame: 100 },
      { id: "intro-2", name: "Intro", startFrame: 100, endFrame: 120 },
    ]);
    expect(chaptersOf({ version: 1, fields: [] }, template())).toHaveLength(3);
  });

  it("no markers, no chapters", () => {
    expect(chaptersOf(null, loadLottieFixture("lights"))).toEqual([]);
  });
});
