import { readFileSync } from "node:fs";
import type { LottieFont } from "@/shared/templates/lottie";

// The fonts server renders draw text with: DejaVu Sans (the dejavu-fonts-ttf package) in the
// weight and slant each font of the Lottie's fonts.list names, so that a bold headline stays
// bold in PNG, MP4 and GIF output as it is in the player. A template's own font files are not
// shipped with it (Lottie names fonts, it does not carry them), so the family is always DejaVu
// Sans; the weight and style come from fStyle ("Bold", "SemiBold Italic"…), or from fName
// ("Roboto-BoldItalic") when fStyle names no weight, or from a numeric fWeight.

export type FontFace = "regular" | "bold" | "oblique" | "boldOblique";
export type FontFiles = Record<FontFace, ArrayBuffer>;

/** Weights drawn bold: semibold (600) and up, as CSS rounds them to the two weights there are. */
const boldWords = /(semi|demi|extra|ultra)?[-\s]?bold|black|heavy|\bfat\b/i;
/** Words that name a weight at or under medium: they settle the weight as regular. */
const regularWords = /regular|normal|book|roman|medium|light|thin|hairline|plain/i;
const slantWords = /italic|oblique|slanted|kursiv/i;

function exactBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : (bytes.slice().buffer as ArrayBuffer);
}

/** The four DejaVu Sans files, read once per renderer (file URLs relative to this module: Next's bundler copies them as assets). */
export function readFontFiles(): FontFiles {
  return {
    regular: exactBuffer(readFileSync(new URL("../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf", import.meta.url))),
    bold: exactBuffer(readFileSync(new URL("../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf", import.meta.url))),
    oblique: exactBuffer(readFileSync(new URL("../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf", import.meta.url))),
    boldOblique: exactBuffer(readFileSync(new URL("../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf", import.meta.url))),
  };
}

function isBold(font: LottieFont): boolean {
  const weight = Number(font.fWeight);
  if (typeof font.fWeight !== "boolean" && font.fWeight !== "" && Number.isFinite(weight) && weight > 0) return weight >= 600;
  const style = typeof font.fStyle === "string" ? font.fStyle : "";
  if (boldWords.test(style)) return true;
  if (regularWords.test(style)) return false;
  return boldWords.test(typeof font.fName === "string" ? font.fName : "");
}

/** Which face draws a font of fonts.list: by the weight and slant its fStyle, fName or fWeight name. */
export function fontFaceOf(font: LottieFont): FontFace {
  const slanted = [font.fStyle, font.fName].some((text) => typeof text === "string" && slantWords.test(text));
  const bold = isBold(font);
  if (bold) return slanted ? "boldOblique" : "bold";
  return slanted ? "oblique" : "regular";
}
