import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { zodFieldErrors } from "@/lib/errors";
import {
  imageAsset,
  imageLayer,
  loadLottieFixture,
  makeLottie,
  precompLayer,
  solidPng,
  solidPngDataUrl,
  textLayer,
  weatherManifest,
} from "@/testing/fixtures/lottie-builders";
import { applyBindings, isImageDataUrl } from "./bindings";
import { listImageAssets, listTextLayers, textKeyframes, type Lottie, type LottieLayer } from "./lottie";
import type { BindingManifest } from "./manifest";
import { parsePreviewBody } from "@/lib/templates/preview-contract";

function template(): Lottie {
  const name = textLayer("Name", ["Alex", "Alex!"]);
  (name.t!.d as Record<string, unknown>).x = "var $bm_rt = 'from an expression';";
  return makeLottie({
    layers: [name, textLayer("Title", "Welcome"), imageLayer("avatar", "image_0"), precompLayer("card", "comp_0", 320, 180)],
    assets: [
      imageAsset("image_0", "avatar.png", 64, 64),
      imageAsset("image_1", "other.png", 64, 64),
      { id: "comp_0", layers: [textLayer("Name", "Alex in a card")] },
    ],
    slots: {
      headline: { p: { k: [{ s: { t: "Big news", s: 30, f: "Arial-Regular" }, t: 0 }] } },
      logo: { p: { w: 64, h: 64, u: "images/", p: "logo.png", e: 0 } },
    },
  });
}

const manifest: BindingManifest = {
  version: 1,
  fields: [
    { key: "firstName", type: "text", target: { layer: "Name" }, default: "there", maxLength: 10 },
    { key: "title", type: "text", target: { layer: "Title" } },
    { key: "avatar", type: "image", target: { asset: "image_0" }, default: "other.png" },
    { key: "headline", type: "text", target: { slot: "headline" } },
    { key: "logo", type: "image", target: { slot: "logo" } },
  ],
};

const texts = (lottie: Lottie, name: string) =>
  [...lottie.layers, ...(lottie.assets ?? []).flatMap((asset) => asset.layers ?? [])]
    .filter((layer: LottieLayer) => layer.ty === 5 && layer.nm === name)
    .flatMap((layer) => textKeyframes(layer).map((keyframe) => keyframe.s?.t));
const asset = (lottie: Lottie, id: string) => lottie.assets!.find((candidate) => candidate.id === id)!;

const redPng = solidPngDataUrl([255, 0, 0, 255]);

describe("applyBindings – text", () => {
  it("replaces the text of every keyframe of every layer with the name, precompositions included", () => {
    const { lottie, warnings } = applyBindings({ lottie: template(), manifest, data: { firstName: "Maria" } });
    expect(texts(lottie, "Name")).toEqual(["Maria", "Maria", "Maria"]);
    expect(warnings).toEqual([]);
  });

  it("drops the text expression of a bound layer, so lottie-web cannot compute it again", () => {
    const { lottie } = applyBindings({ lottie: template(), manifest, data: { firstName: "Maria" } });
    expect(lottie.layers[0]!.t!.d!.x).toBeUndefined();
  });

  it("a missing key takes the manifest default; without one the template's text stays", () => {
    const { lottie } = applyBindings({ lottie: template(), manifest, data: {} });
    expect(texts(lottie, "Name")).toEqual(["there", "there", "there"]);
    expect(texts(lottie, "Title")).toEqual(["Welcome"]);
  });

  it("an empty string is a value, not a missing key", () => {
    expect(texts(applyBindings({ lottie: template(), manifest, data: { title: "" } }).lottie, "Title")).toEqual([""]);
  });

  it("longer than maxLength: cut by code points, ending in an ellipsis, with a warning", () => {
    const { lottie, warnings } = applyBindings({ lottie: template(), manifest, data: { firstName: "😀😀😀😀😀😀😀😀😀😀😀😀" } });
    expect(texts(lottie, "Name")[0]).toBe("😀😀😀😀😀😀😀😀😀…");
    expect([...texts(lottie, "Name")[0]!]).toHaveLength(10);
    expect(warnings).toEqual(['"firstName" was shortened to 10 characters']);
  });

  it("exactly maxLength is kept whole", () => {
    expect(texts(applyBindings({ lottie: template(), manifest, data: { firstName: "Maximilian" } }).lottie, "Name")[0]).toBe("Maximilian");
  });

  it("line breaks become \\r, the After Effects line separator", () => {
    expect(texts(applyBindings({ lottie: template(), manifest, data: { title: "Hello\nthere\r\nyou" } }).lottie, "Title")).toEqual(["Hello\rthere\ryou"]);
  });

  it("a text slot: every keyframe of slots[sid].p.k", () => {
    const { lottie } = applyBindings({ lottie: template(), manifest, data: { headline: "Breaking" } });
    expect(lottie.slots!.headline).toEqual({ p: { k: [{ s: { t: "Breaking", s: 30, f: "Arial-Regular" }, t: 0 }] } });
  });
});

describe("applyBindings – images", () => {
  it("a PNG data URL is embedded in the asset: p = the URL, u = '', e = 1", () => {
    const { lottie, warnings } = applyBindings({ lottie: template(), manifest, data: { avatar: redPng } });
    expect(asset(lottie, "image_0")).toMatchObject({ p: redPng, u: "", e: 1, w: 64, h: 64 });
    expect(warnings).toEqual([]);
  });

  it("the name of one of the template's image files is referenced", () => {
    const { lottie } = applyBindings({ lottie: template(), manifest, data: { avatar: "other.png" } });
    expect(asset(lottie, "image_0")).toMatchObject({ p: "other.png", u: "images/", e: 0 });
  });

  it("a file from the template's asset files (not referenced by the animation) is accepted too", () => {
    const { lottie, warnings } = applyBindings({ lottie: template(), manifest, data: { avatar: "extra.png" }, assets: ["extra.png"] });
    expect(asset(lottie, "image_0").p).toBe("extra.png");
    expect(warnings).toEqual([]);
  });

  it.each([
    ["an SVG data URL", `data:image/svg+xml;base64,${btoa("<svg/>")}`],
    ["a PNG data URL holding a JPEG", `data:image/png;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(20).fill(0)]).toString("base64")}`],
    ["a JPEG data URL holding a PNG", redPng.replace("image/png", "image/jpeg")],
    ["broken base64", `${redPng.slice(0, 40)}!!!${redPng.slice(43)}`],
    ["not base64-encoded", "data:image/png,rawbytes"],
    ["an https URL", "https://example.com/face.png"],
    ["an unknown file name", "face.png"],
    ["a path to a template file", "../avatar.png"],
  ])("%s → a warning, and the default image", (_, value) => {
    const { lottie, warnings } = applyBindings({ lottie: template(), manifest, data: { avatar: value } });
    expect(asset(lottie, "image_0")).toMatchObject({ p: "other.png", e: 0 });
    expect(warnings).toEqual([
      '"avatar" is neither a data:image/png, jpeg or webp base64 URL nor one of the template\'s image files; the default image is used',
    ]);
  });

  it("an invalid image without a manifest default keeps the template's image", () => {
    const { lottie } = applyBindings({ lottie: template(), manifest, data: { logo: "nope" } });
    expect(lottie.slots!.logo).toEqual({ p: { w: 64, h: 64, u: "images/", p: "logo.png", e: 0 } });
  });

  it("an image slot: its image asset takes the data URL", () => {
    const { lottie } = applyBindings({ lottie: template(), manifest, data: { logo: redPng } });
    expect(lottie.slots!.logo).toEqual({ p: { w: 64, h: 64, u: "", p: redPng, e: 1 } });
  });

  it.each([
    ["PNG", redPng, true],
    ["JPEG", `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString("base64")}`, true],
    ["WebP", `data:image/webp;base64,${Buffer.from("RIFF\x10\0\0\0WEBPVP8 ", "latin1").toString("base64")}`, true],
    ["WebP without the WEBP tag", `data:image/webp;base64,${Buffer.from("RIFF\x10\0\0\0WAVEfmt ", "latin1").toString("base64")}`, false],
    ["GIF", `data:image/gif;base64,${Buffer.from("GIF89a\x01\0\x01\0\0\0\0\0", "latin1").toString("base64")}`, false],
  ])("isImageDataUrl: %s → %s", (_, value, expected) => {
    expect(isImageDataUrl(value)).toBe(expected);
  });
});

describe("applyBindings – keys, conventions, input", () => {
  it("keys that match no field are warnings", () => {
    const { warnings } = applyBindings({ lottie: template(), manifest, data: { firstName: "Maria", color: "red", "": "x" } });
    expect(warnings).toEqual(['unknown key "color"', 'unknown key ""']);
  });

  it("a value that is not a string is a warning, and the default is used", () => {
    const { lottie, warnings } = applyBindings({ lottie: template(), manifest, data: { firstName: 42 } as unknown as Record<string, string> });
    expect(texts(lottie, "Name")[0]).toBe("there");
    expect(warnings).toEqual(['"firstName" is not a string; the default is used']);
  });

  it("a field whose target the animation lacks is a warning (manifest not checked against this file)", () => {
    const lonely: BindingManifest = { version: 1, fields: [{ key: "city", type: "text", target: { layer: "City" } }] };
    expect(applyBindings({ lottie: template(), manifest: lonely, data: { city: "Porto" } }).warnings).toEqual([
      '"city" targets the text layer "City", which templateJson does not have',
    ]);
  });

  it("without a manifest, text layers named {{key}} bind by convention", () => {
    const lottie = makeLottie({ layers: [textLayer("{{firstName}}", "Alex"), textLayer("{{ city }}", "Lisbon"), textLayer("Title", "Hi")] });
    const bound = applyBindings({ lottie, manifest: null, data: { firstName: "Maria", Title: "ignored" } });
    expect(listTextLayers(bound.lottie).map((layer) => layer.text)).toEqual(["Maria", "Lisbon", "Hi"]);
    expect(bound.warnings).toEqual(['unknown key "Title"']);
  });

  it("does not mutate its input; the result shares no objects with it", () => {
    const input = template();
    const before = structuredClone(input);
    const { lottie } = applyBindings({ lottie: input, manifest, data: { firstName: "Maria", avatar: redPng, headline: "x", logo: redPng } });
    expect(input).toEqual(before);
    expect(lottie).not.toBe(input);
    expect(lottie.layers[0]).not.toBe(input.layers[0]);
    expect(lottie.assets![0]).not.toBe(input.assets![0]);
  });

  it("weather card: City, Status and Tempreture are text layers, image_0 takes a data URL", () => {
    const weather = loadLottieFixture("weatherCard");
    const png = solidPngDataUrl([0, 128, 255, 255], 278, 278);
    const { lottie, warnings } = applyBindings({ lottie: weather, manifest: weatherManifest, data: { city: "Porto", status: "Sunny", temperature: "21 °C", profile: png } });
    expect(warnings).toEqual([]);
    expect(listTextLayers(lottie).map((layer) => layer.text)).toEqual(["", "21 °C", "Sunny", "Porto"]);
    expect(listImageAssets(lottie)[0]).toMatchObject({ id: "image_0", fileName: png, embedded: true });
    expect(solidPng([0, 128, 255, 255], 278, 278).toString("base64")).toBe(png.split(",")[1]);
  });
});

describe("parsePreviewBody", () => {
  it("accepts string values", () => {
    expect(parsePreviewBody({ data: { firstName: "Maria", avatar: redPng } })).toEqual({ data: { firstName: "Maria", avatar: redPng } });
  });

  it.each([
    ["a number value", { data: { firstName: 42 } }, [{ path: "data.firstName", message: "must be a string" }]],
    ["a null value", { data: { firstName: null } }, [{ path: "data.firstName", message: "must be a string" }]],
    ["an object value", { data: { address: { city: "Porto" } } }, [{ path: "data.address", message: "must be a string" }]],
    ["several bad values", { data: { a: 1, b: "ok", c: true } }, [{ path: "data.a", message: "must be a string" }, { path: "data.c", message: "must be a string" }]],
    ["data missing", {}, [{ path: "data", message: expect.any(String) }]],
    ["data an array", { data: ["x"] }, [{ path: "data", message: expect.any(String) }]],
    ["an unknown member", { data: {}, frame: 3 }, [{ path: "frame", message: "unknown field: frame" }]],
    ["a value over the limit", { data: { a: "x".repeat(1_000_001) } }, [{ path: "data.a", message: "must be at most 1000000 characters" }]],
  ])("%s → 422 errors", (_, body, errors) => {
    try {
      parsePreviewBody(body);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ZodError);
      expect(zodFieldErrors(error as ZodError)).toEqual(errors);
    }
  });
});
