import { describe, expect, it } from "vitest";
import { captionMessages } from "./caption-messages";
import { supportedLocales, translator } from "./locale";

describe("captionMessages", () => {
  it.each(supportedLocales)("%s: every message formats, and the seek label names the time", (locale) => {
    const t = translator(captionMessages, locale);
    for (const id of Object.keys(captionMessages.en) as (keyof typeof captionMessages.en)[]) expect(t(id, { time: "1:05" })).not.toBe("");
    expect(t("playFrom", { time: "1:05" })).toContain("1:05");
    expect(t("captionsTitle")).toContain("(c)");
  });

  it("reads the share's language: de-AT is German, an unknown language English", () => {
    expect(translator(captionMessages, "de-AT")("transcript")).toBe("Transkript");
    expect(translator(captionMessages, "sv-SE")("captions")).toBe("Captions");
  });
});
