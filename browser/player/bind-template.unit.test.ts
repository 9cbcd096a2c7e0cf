import { describe, expect, it } from "vitest";
import type { Lottie, LottieAsset } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";
import { bindTemplate, dropDataFiles, resolveAssetUrls } from "./bind-template";

const base = "https://app.example/api/embed/files";
const assetUrls = { "img_0.png": `${base}/img_0.png`, "other.png": `${base}/other.png`, "data_0.json": `${base}/data_0.json` };
const pngDataUrl = `data:image/png;base64,${Buffer.from("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "latin1").toString("base64")}`;

function template(): Lottie {
  return {
    v: "5.7.0",
    fr: 30,
    ip: 0,
    op: 90,
    w: 640,
    h: 360,
    assets: [
      { id: "image_0", w: 100, h: 100, u: "images/", p: "img_0.png", e: 0 },
      { id: "image_1", w: 100, h: 100, u: "", p: pngDataUrl, e: 1 },
      { id: "image_2", w: 100, h: 100, u: "", p: "images/img_0.png", e: 0 },
      { id: "image_3", w: 100, h: 100, u: "images/", p: "missing.png", e: 0 },
      { id: "data_0", u: "images/", p: "data_0.json", e: 0, t: 3 },
      { id: "comp_0", nm: "img_0.png", layers: [] },
    ],
    slots: { photo: { p: { w: 100, h: 100, u: "images/", p: "img_0.png", e: 0 } } },
    layers: [{ ty: 5, nm: "Name", t: { d: { k: [{ t: 0, s: { t: "there" } }] } } }],
  };
}

const asset = (lottie: Lottie, id: string) => lottie.assets?.find((candidate) => candidate.id === id) as LottieAsset;

describe("resolveAssetUrls", () => {
  it.each([
    { id: "image_0", name: "a file name with its folder in u", expected: { u: "", p: `${base}/img_0.png` } },
    { id: "image_1", name: "an embedded image", expected: { u: "", p: pngDataUrl } },
    { id: "image_2", name: "a file name with its folder in p", expected: { u: "", p: `${base}/img_0.png` } },
    { id: "image_3", name: "a name the manifest does not list", expected: { u: "images/", p: "missing.png" } },
    { id: "comp_0", name: "a precomposition", expected: { u: undefined, p: undefined } },
  ])("$name ($id)", ({ id, expected }) => {
    const lottie = template();
    resolveAssetUrls(lottie, assetUrls);
    const { u, p } = asset(lottie, id);
    expect({ u, p }).toEqual(expected);
  });

  it("an image slot", () => {
    const lottie = template();
    resolveAssetUrls(lottie, assetUrls);
    expect(lottie.slots?.photo?.p).toMatchObject({ u: "", p: `${base}/img_0.png` });
  });
});

describe("dropDataFiles", () => {
  it("removes t: 3 assets and keeps images and precompositions", () => {
    const lottie = template();
    dropDataFiles(lottie);
    expect(lottie.assets?.map((candidate) => candidate.id)).toEqual(["image_0", "image_1", "image_2", "image_3", "comp_0"]);
  });
});

describe("bindTemplate", () => {
  const manifest: BindingManifest = {
    version: 1,
    fields: [
      { key: "name", type: "text", target: { layer: "Name" } },
      { key: "avatar", type: "image", target: { asset: "image_0" } },
    ],
  };

  it("an image field naming another asset file – that file's URL", () => {
    const { animationData } = bindTemplate(template(), manifest, { avatar: "other.png" }, assetUrls);
    expect(asset(animationData, "image_0")).toMatchObject({ u: "", p: `${base}/other.png`, e: 0 });
  });

  it("an image field with a data URL – embedded as given", () => {
    const { animationData } = bindTemplate(template(), manifest, { avatar: pngDataUrl }, assetUrls);
    expect(asset(animationData, "image_0")).toMatchObject({ u: "", p: pngDataUrl, e: 1 });
  });

  it("no data files left for lottie-web to fetch, no glyph outlines", () => {
    const { animationData } = bindTemplate({ ...template(), chars: [{ ch: "A", fFamily: "Arial", data: {} }] }, manifest, {}, assetUrls);
    expect(animationData.assets?.some((candidate) => candidate.t === 3)).toBe(false);
    expect(animationData.chars).toBeUndefined();
  });

  it("text bound, warnings passed on, the template untouched", () => {
    const original = template();
    const { animationData, warnings } = bindTemplate(original, manifest, { name: "Ada", colour: "red" }, assetUrls);
    expect(animationData.layers[0]?.t?.d?.k?.[0]?.s?.t).toBe("Ada");
    expect(warnings).toEqual(['unknown key "colour"']);
    expect(original).toEqual(template());
  });
});
