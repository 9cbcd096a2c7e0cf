import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { renderPreviewPixels } from "@/lib/skottie/preview-renderer";
import { applyBindings } from "@/shared/templates/bindings";
import { parseLottieJson } from "@/lib/templates/lottie";
import { listTextLayers } from "@/shared/templates/lottie";
import { parseManifestJson } from "@/lib/templates/manifest";

// Reelbind's own demo template (scripts/make-demo-template.mjs), as the bootstrap uploads it.

const demoDir = path.join(process.cwd(), "lib/bootstrap/demo-template");
const versions = [
  { version: "landscape", width: 1280, height: 720 },
  { version: "portrait", width: 720, height: 1280 },
] as const;

function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

const read = (version: string, name: string) => readFileSync(path.join(demoDir, version, name));

describe("scripts/make-demo-template.mjs", () => {
  const out = mkdtempSync(path.join(tmpdir(), "demo-template-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("makes the committed files again, byte for byte", async () => {
    await promisify(execFile)(process.execPath, ["scripts/make-demo-template.mjs", out]);
    const committed = filesUnder(demoDir).filter((name) => !name.endsWith(".md"));
    expect(filesUnder(out)).toEqual(committed);
    for (const name of committed) expect(readFileSync(path.join(out, name)).equals(readFileSync(path.join(demoDir, name))), name).toBe(true);
  });
});

describe.each(versions)("lib/bootstrap/demo-template/$version", ({ version, width, height }) => {
  const lottie = parseLottieJson(read(version, "data.json").toString("utf8"));
  const manifest = parseManifestJson(read(version, "manifest.json").toString("utf8"), lottie);

  it("is a 30 fps Lottie of 8 to 12 s under 150 KB with its image, whose manifest binds text layers, the logo asset, chapters and a CTA", () => {
    expect({ w: lottie.w, h: lottie.h, fr: lottie.fr, v: lottie.v.split(".")[0] }).toEqual({ w: width, h: height, fr: 30, v: "5" });
    const seconds = (lottie.op - lottie.ip) / lottie.fr;
    expect(seconds).toBeGreaterThanOrEqual(8);
    expect(seconds).toBeLessThanOrEqual(12);
    const bytes = filesUnder(path.join(demoDir, version)).reduce((sum, name) => sum + read(version, name).length, 0);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);

    const textLayers = new Set(listTextLayers(lottie).map((layer) => layer.name));
    for (const field of manifest.fields.filter((f) => f.type === "text")) {
      expect(textLayers.has((field.target as { layer: string }).layer), field.key).toBe(true);
      expect(field.maxLength, field.key).toBeGreaterThan(0);
    }
    expect(manifest.fields.find((f) => f.type === "image")).toEqual({ key: "logo", type: "image", target: { asset: "logo" }, default: "logo.png" });
    expect(manifest.chapters?.map((chapter) => chapter.id)).toEqual(["greeting", "your-plan", "next-step"]);
    expect(manifest.ctas).toEqual([{ id: "manage-plan", name: "Manage my plan", layer: "CTA button" }]);
    expect(new Set(lottie.fonts?.list?.map((font) => font.fFamily))).toEqual(new Set(["Helvetica Neue, Arial, sans-serif"]));
  });

  it("frame 0, the poster frame, already shows the background, the logo and the greeting with the name", async () => {
    expect(manifest.posterFrame).toBe(0);
    const bound = applyBindings({ lottie, manifest, data: { firstName: "Ana" } });
    const { rgba } = await renderPreviewPixels({ lottie: bound.lottie, assets: new Map([["logo.png", new Uint8Array(read(version, "images/logo.png"))]]), frame: 0, width, height });
    const pixel = (x: number, y: number) => [...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)];
    const near = (rgb: number[], hex: string) => rgb.every((c, i) => Math.abs(c - parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16)) <= 8);
    expect(near(pixel(8, 8), "#F6F3EC"), "background").toBe(true);
    const logo = lottie.layers.find((layer) => layer.nm === "Logo")!.ks as { p: { k: number[] } };
    expect(near(pixel(logo.p.k[0]! + 8, logo.p.k[1]! + 36), "#0B5F58"), "logo").toBe(true);
    let ink = 0;
    for (let i = 0; i < rgba.length; i += 4) if (near([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!], "#13233F")) ink++;
    expect(ink, "pixels of the greeting's ink").toBeGreaterThan(2000);
  });
});
