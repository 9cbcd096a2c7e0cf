import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import {
  imageAsset,
  lottieFixtures,
  loadLottieFixture,
  makeLottie,
  precompLayer,
  readFixture,
  textLayer,
} from "@/testing/fixtures/lottie-builders";
import { listImageAssets, listMarkers, listSlots, listTextLayers, lottieInfo, slotText } from "@/shared/templates/lottie";
import { JsonTextError, LottieJsonError, parseJsonText, parseLottieJson } from "./lottie";

const valid = { v: "5.7.4", fr: 30, ip: 0, op: 60, w: 320, h: 180, layers: [] };
const withMembers = (members: Record<string, unknown>) => JSON.stringify({ ...valid, ...members });
const without = (member: string) => JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([key]) => key !== member)));

describe("parseLottieJson", () => {
  it.each(Object.entries(lottieFixtures))("parses the %s fixture", (_, file) => {
    const lottie = parseLottieJson(readFixture(file).toString("utf8"));
    expect(lottie.layers.length).toBeGreaterThan(0);
  });

  it.each([
    ["not an object: array", "[]", "invalid_shape", "templateJson", "must be a JSON object (a Lottie animation)"],
    ["not an object: number", "42", "invalid_shape", "templateJson", "must be a JSON object (a Lottie animation)"],
    ["not an object: null", "null", "invalid_shape", "templateJson", "must be a JSON object (a Lottie animation)"],
    ["not JSON", "{\"v\":", "invalid_json", "templateJson", "is not valid JSON"],
    ["empty text", "", "invalid_json", "templateJson", "is not valid JSON"],
    ["missing v", without("v"), "invalid_shape", "templateJson.v", "is required: the Bodymovin version string"],
    ["v not a string", withMembers({ v: 5 }), "invalid_shape", "templateJson.v", "is required"],
    ["missing fr", without("fr"), "invalid_shape", "templateJson.fr", "must be a frame rate greater than 0"],
    ["fr 0", withMembers({ fr: 0 }), "invalid_shape", "templateJson.fr", "must be a frame rate greater than 0"],
    ["missing ip", without("ip"), "invalid_shape", "templateJson.ip", "must be a number"],
    ["missing op", without("op"), "invalid_shape", "templateJson.op", "must be a number"],
    ["op equal to ip", withMembers({ ip: 10, op: 10 }), "invalid_shape", "templateJson.op", "must be greater than ip (10)"],
    ["op before ip", withMembers({ ip: 10, op: 5 }), "invalid_shape", "templateJson.op", "must be greater than ip (10)"],
    ["missing w", without("w"), "invalid_shape", "templateJson.w", "must be a whole number of pixels from 1 to 8192"],
    ["w 0", withMembers({ w: 0 }), "invalid_shape", "templateJson.w", "from 1 to 8192"],
    ["w fractional", withMembers({ w: 320.5 }), "invalid_shape", "templateJson.w", "from 1 to 8192"],
    ["h over 8192", withMembers({ h: 8193 }), "invalid_shape", "templateJson.h", "from 1 to 8192"],
    ["h a string", withMembers({ h: "180" }), "invalid_shape", "templateJson.h", "from 1 to 8192"],
    ["missing layers", without("layers"), "invalid_shape", "templateJson.layers", "must be an array"],
    ["layers an object", withMembers({ layers: {} }), "invalid_shape", "templateJson.layers", "must be an array"],
    ["assets an object", withMembers({ assets: {} }), "invalid_shape", "templateJson.assets", "must be an array"],
    ["slots an array", withMembers({ slots: [] }), "invalid_shape", "templateJson.slots", "must be an object"],
    ["a layer that is not an object", withMembers({ layers: [{ ty: 4 }, null] }), "invalid_shape", "templateJson.layers.1", "must be an object"],
    ["an asset that is not an object", withMembers({ assets: ["img.png"] }), "invalid_shape", "templateJson.assets.0", "must be an object"],
  ])("%s → LottieJsonError", (_, text, reason, path, message) => {
    const error = captureError(() => parseLottieJson(text));
    expect(error).toBeInstanceOf(LottieJsonError);
    expect(error).toBeInstanceOf(ValidationError);
    const lottieError = error as LottieJsonError;
    expect(lottieError.reason).toBe(reason);
    expect(lottieError.kind).toBe("validation_failed");
    expect(lottieError.errors).toHaveLength(1);
    expect(lottieError.errors![0]!.path).toBe(path);
    expect(lottieError.errors![0]!.message).toContain(message);
  });

  it("names the member in the message: 'op: must be greater than ip (0)'", () => {
    expect(() => parseLottieJson(withMembers({ op: 0 }))).toThrow("op: must be greater than ip (0)");
  });

  it("deep nesting, 10,000 levels → a clear error, not a stack overflow", () => {
    const bomb = `{"v":"5","fr":30,"ip":0,"op":60,"w":10,"h":10,"layers":[${"[".repeat(10_000)}${"]".repeat(10_000)}]}`;
    const error = captureError(() => parseLottieJson(bomb)) as LottieJsonError;
    expect(error).toBeInstanceOf(LottieJsonError);
    expect(error.reason).toBe("too_deep");
    expect(error.message).toMatch(/^nests arrays and objects deeper than 64 levels \(at character \d+\)$/);
  });

  it("deep nesting: brackets inside strings do not count", () => {
    const lottie = parseLottieJson(withMembers({ nm: "[".repeat(10_000), layers: [] }));
    expect(lottie.nm).toHaveLength(10_000);
  });

  it("deep nesting: 64 levels pass, 65 fail", () => {
    const nested = (levels: number) => withMembers({ layers: [{ deep: JSON.parse(`${"[".repeat(levels - 3)}${"]".repeat(levels - 3)}`) }] });
    expect(() => parseLottieJson(nested(64))).not.toThrow();
    expect(() => parseLottieJson(nested(65))).toThrow(/deeper than 64 levels/);
  });

  it("larger than the size limit → too_large before parsing", () => {
    const error = captureError(() => parseLottieJson(withMembers({ nm: "x".repeat(200) }), { maxChars: 100 })) as LottieJsonError;
    expect(error.reason).toBe("too_large");
    expect(error.message).toMatch(/characters long; the limit is 100$/);
  });

  it("ignores a leading byte-order mark", () => {
    expect(parseLottieJson(`\ufeff${JSON.stringify(valid)}`).w).toBe(320);
  });
});

describe("parseJsonText", () => {
  it("throws JsonTextError with the reason and no path", () => {
    const error = captureError(() => parseJsonText("{", {})) as JsonTextError;
    expect(error).toBeInstanceOf(JsonTextError);
    expect(error.reason).toBe("invalid_json");
    expect(error.errors).toEqual([{ path: "", message: error.message }]);
  });
});

describe("lottieInfo", () => {
  it("weather card: 720×1280, 30 fps, frames 0–360, 12 s", () => {
    expect(lottieInfo(loadLottieFixture("weatherCard"))).toEqual({
      width: 720,
      height: 1280,
      frameRate: 30,
      inPoint: 0,
      outPoint: 360,
      durationSeconds: 12,
    });
  });
});

describe("binding targets", () => {
  it("listTextLayers finds text layers inside precomposition assets (banner)", () => {
    const layers = listTextLayers(loadLottieFixture("banner"));
    expect(layers.map((layer) => layer.name)).toEqual(expect.arrayContaining(["Skill Up with", "Share.", "Inspire."]));
    expect(layers.every((layer) => layer.compId?.startsWith("comp_"))).toBe(true);
    expect(layers.find((layer) => layer.name === "Share.")).toMatchObject({ text: "Share.", font: "Montserrat-Bold" });
  });

  it("listTextLayers: weather card's text layers in the main composition", () => {
    expect(listTextLayers(loadLottieFixture("weatherCard")).map(({ name, compId, text }) => ({ name, compId, text }))).toEqual([
      { name: "<empty text layer>", compId: null, text: "" },
      { name: "Tempreture", compId: null, text: "Tempreture" },
      { name: "Status", compId: null, text: "Status" },
      { name: "City", compId: null, text: "City" },
    ]);
  });

  it("listImageAssets: images with file name and folder, not the data source asset", () => {
    expect(listImageAssets(loadLottieFixture("weatherCard"))).toEqual([
      { id: "image_0", fileName: "img_0.jpg", folder: "images/", embedded: false, width: 278, height: 278 },
      { id: "image_1", fileName: "img_1.jpg", folder: "images/", embedded: false, width: 1600, height: 1600 },
    ]);
  });

  it("listImageAssets: embedded data URLs are flagged, precompositions are not images", () => {
    const lottie = makeLottie({
      assets: [imageAsset("image_0", "data:image/png;base64,iVBORw0KGgo=", 8, 8), { id: "comp_0", layers: [textLayer("Inner", "x")] }],
      layers: [precompLayer("comp", "comp_0", 320, 180)],
    });
    expect(listImageAssets(lottie)).toEqual([
      { id: "image_0", fileName: "data:image/png;base64,iVBORw0KGgo=", folder: "", embedded: true, width: 8, height: 8 },
    ]);
  });

  it("listSlots: text, image and other slots by kind", () => {
    const lottie = makeLottie({
      slots: {
        greeting: { p: { k: [{ s: { t: "Hello", s: 30, f: "Arial-Regular" }, t: 0 }] } },
        headline: { p: { k: { t: "Static", s: 30 } } },
        logo: { p: { w: 10, h: 10, u: "", p: "logo.png", e: 0 } },
        accent: { p: { a: 0, k: [1, 0, 0, 1] } },
      },
    });
    expect(listSlots(lottie)).toEqual([
      { id: "greeting", kind: "text" },
      { id: "headline", kind: "text" },
      { id: "logo", kind: "image" },
      { id: "accent", kind: "other" },
    ]);
    expect(slotText(lottie.slots!.greeting)).toBe("Hello");
    expect(slotText(lottie.slots!.headline)).toBe("Static");
    expect(slotText(lottie.slots!.logo)).toBeNull();
  });

  it("listMarkers: sorted by start, with durations", () => {
    const lottie = makeLottie({ markers: [{ cm: "Outro", tm: 40, dr: 0 }, { cm: "Intro", tm: 0, dr: 20 }, { tm: "bad" }] as never });
    expect(listMarkers(lottie)).toEqual([
      { name: "Intro", startFrame: 0, durationFrames: 20 },
      { name: "Outro", startFrame: 40, durationFrames: 0 },
    ]);
  });
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}
