import { describe, expect, it } from "vitest";
import { makeLottie, solidPngDataUrl, textLayer } from "@/testing/fixtures/lottie-builders";
import { applyBindings } from "./bindings";
import { asPlayedValues, checkPersonalizationData, dataRuleFields, playedData, templateRuleFields } from "./data-rules";
import type { BindingManifest } from "./manifest";

const manifest: BindingManifest = {
  version: 1,
  fields: [
    { key: "firstName", type: "text", target: { layer: "Name" }, maxLength: 12 },
    { key: "planName", type: "text", target: { layer: "Plan" }, maxLength: 5, strict: true },
  ],
};
const lottie = makeLottie({ layers: [textLayer("Name", "there"), textLayer("Plan", "Basic")] });
const fields = dataRuleFields(manifest.fields);

describe("checkPersonalizationData", () => {
  it("the issue's data: an unknown key and a name over maxLength, in the live preview's (applyBindings') own words", () => {
    const data = { nickname: "Max", firstName: "Maximilianoooooo" };
    const problems = checkPersonalizationData(fields, data, null);
    expect(problems).toEqual([
      { key: "nickname", code: "unknown_key", strict: false, message: 'unknown key "nickname"' },
      { key: "firstName", code: "too_long", strict: false, message: '"firstName" was shortened to 12 characters' },
    ]);
    expect(applyBindings({ lottie, manifest, data }).warnings).toEqual(problems.map((problem) => problem.message));
  });

  it.each([
    ["too long", { planName: "Platinum" }, "too_long", '"planName" is 8 characters; the template allows at most 5'],
    ["not a string", { planName: ["Gold"] }, "not_string", '"planName" must be a string'],
  ])("a strict field's problem (%s) is a refusal, and the preview words it the same way", (_, data, code, message) => {
    expect(checkPersonalizationData(fields, data, null)).toEqual([{ key: "planName", code, strict: true, message }]);
    expect(applyBindings({ lottie, manifest, data: data as Record<string, string> }).warnings).toEqual([message]);
  });

  it("counts code points after line breaks become one separator, as the player does; a share's numbers play as their text", () => {
    expect(checkPersonalizationData(fields, { firstName: "😀".repeat(12), planName: "ab\r\ncd" }, null)).toEqual([]);
    expect(checkPersonalizationData(fields, asPlayedValues({ planName: 12345 }), null)).toEqual([]);
    expect(checkPersonalizationData(fields, asPlayedValues({ planName: 123456 }), null)).toMatchObject([{ code: "too_long", strict: true }]);
    expect(playedData({ a: "x", n: 3, b: false, o: { x: 1 }, z: null })).toEqual({ a: "x", n: "3", b: "false" });
  });

  it("an image value must be an image data URL or one of the template's image files (when they are known)", () => {
    const image = dataRuleFields([{ key: "logo", type: "image" }]);
    expect(checkPersonalizationData(image, { logo: "logo.png" }, new Set(["logo.png"]))).toEqual([]);
    expect(checkPersonalizationData(image, { logo: solidPngDataUrl([0, 0, 0, 255]) }, new Set())).toEqual([]);
    expect(checkPersonalizationData(image, { logo: "other.png" }, null)).toEqual([]);
    expect(checkPersonalizationData(image, { logo: "https://example.com/a.png" }, new Set(["logo.png"]))).toMatchObject([{ code: "not_image", strict: false }]);
  });

  it("templateRuleFields takes strict from the manifest, for fields stored before the flag existed", () => {
    const stored = [
      { key: "firstName", type: "text" as const, default: "there", maxLength: 12 },
      { key: "planName", type: "text" as const, default: "Basic", maxLength: 5 },
    ];
    expect(templateRuleFields(stored, manifest).map((field) => [field.key, field.strict])).toEqual([
      ["firstName", false],
      ["planName", true],
    ]);
  });
});
