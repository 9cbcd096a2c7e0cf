import { describe, expect, it } from "vitest";
import { acceptedLocale } from "./viewer-locale";
import { shareLocale } from "./share-rules";

describe("acceptedLocale", () => {
  it("takes the first Accept-Language tag a catalogue speaks, by q, else English", () => {
    expect(acceptedLocale("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(acceptedLocale("xx, fr;q=0.5, de;q=0.7")).toBe("de");
    expect(acceptedLocale("en-US,en;q=0.9,de;q=0.8")).toBe("en");
    expect(acceptedLocale("ar;q=0, ja")).toBe("ja");
    expect(acceptedLocale("*")).toBe("en");
    expect(acceptedLocale(null)).toBe("en");
    expect(acceptedLocale("pt-PT")).toBe("pt-BR");
  });
});

describe("shareLocale", () => {
  it("is the canonical BCP 47 tag with a 2- or 3-letter language and a region (language-REGION), or null", () => {
    expect(shareLocale("ar-EG")).toBe("ar-EG");
    expect(shareLocale("es-419")).toBe("es-419");
    expect(shareLocale("zh-hant-tw")).toBe("zh-Hant-TW");
    expect(shareLocale("EN-us")).toBe("en-US");
    expect(shareLocale("gsw-CH")).toBe("gsw-CH");
    for (const bad of ["en_US", "english", "x", "en-", "", "a".repeat(40), "ar", "ja", "sr-Latn"]) expect(shareLocale(bad), bad).toBeNull();
  });
});
