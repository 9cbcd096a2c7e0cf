import { describe, expect, it } from "vitest";
import { IntlMessageFormat } from "intl-messageformat";
import { captionMessages } from "./caption-messages";
import { landingMessages } from "./landing-messages";
import { canonicalLocale, resolveLocale, supportedLocales, textDirection, translator, type Catalogue } from "./locale";
import { playerMessages } from "./player-messages";

describe("resolveLocale", () => {
  it("takes the tag itself, else its language, else English", () => {
    expect(resolveLocale("pt-BR")).toBe("pt-BR");
    expect(resolveLocale("de-DE")).toBe("de");
    expect(resolveLocale("de-AT")).toBe("de");
    expect(resolveLocale("DE-at")).toBe("de");
    expect(resolveLocale("ar-EG")).toBe("ar");
    expect(resolveLocale("ja")).toBe("ja");
    expect(resolveLocale("pt-PT")).toBe("pt-BR");
    expect(resolveLocale("xx")).toBe("en");
    expect(resolveLocale("en_US")).toBe("en");
    expect(resolveLocale("")).toBe("en");
    expect(resolveLocale(null)).toBe("en");
  });

  it("canonicalLocale: the canonical form, or null for what is no BCP 47 tag", () => {
    expect(canonicalLocale("EN-us")).toBe("en-US");
    expect(canonicalLocale("zh-hant-tw")).toBe("zh-Hant-TW");
    expect(canonicalLocale("en_US")).toBeNull();
    expect(canonicalLocale("en-")).toBeNull();
  });
});

describe("textDirection", () => {
  it("is rtl for Arabic, Hebrew, Persian and Urdu, whatever the region; ltr otherwise and for nonsense", () => {
    for (const tag of ["ar", "ar-SA", "he-IL", "fa", "ur-PK"]) expect(textDirection(tag), tag).toBe("rtl");
    for (const tag of ["en-US", "de", "ja", "xx", "", null, "en_US"]) expect(textDirection(tag), String(tag)).toBe("ltr");
  });
});

describe("translator", () => {
  const catalogue: Catalogue<"count" | "of"> = {
    en: { count: "{n, plural, one {# video} other {# videos}}", of: "{position} of {duration}" },
    de: { count: "{n, plural, one {# Video} other {# Videos}}", of: "{position} von {duration}" },
    fr: { count: "{n, plural, one {# vidéo} other {# vidéos}}", of: "{position} sur {duration}" },
    es: { count: "{n, plural, one {# vídeo} other {# vídeos}}", of: "{position} de {duration}" },
    "pt-BR": { count: "{n, plural, one {# vídeo} other {# vídeos}}", of: "{position} de {duration}" },
    it: { count: "{n, plural, one {# video} other {# video}}", of: "{position} di {duration}" },
    nl: { count: "{n, plural, one {# video} other {# video's}}", of: "{position} van {duration}" },
    ja: { count: "{n} 本の動画", of: "{duration}中 {position}" },
    ar: { count: "{n, plural, zero {لا فيديو} one {فيديو واحد} two {فيديوهان} few {# فيديوهات} many {# فيديو} other {# فيديو}}", of: "{position} من {duration}" },
  };

  it("formats placeholders and plurals in the resolved catalogue", () => {
    expect(translator(catalogue, "de-AT")("of", { position: "1:02", duration: "3:00" })).toBe("1:02 von 3:00");
    expect(translator(catalogue, "de-DE")("count", { n: 1 })).toBe("1 Video");
    expect(translator(catalogue, "en")("count", { n: 2 })).toBe("2 videos");
    expect(translator(catalogue, "ar")("count", { n: 2 })).toBe("فيديوهان");
    expect(translator(catalogue, "xx")("of", { position: "0:01", duration: "0:05" })).toBe("0:01 of 0:05");
  });

  it("formats numbers for the share's own tag: de-CH groups with an apostrophe-like sign, de with a dot", () => {
    expect(translator(catalogue, "de-DE")("count", { n: 1000 })).toBe("1.000 Videos");
    expect(translator(catalogue, "de-CH")("count", { n: 1000 })).not.toBe("1.000 Videos");
  });

  it("answers every message of the player's, the landing page's and the captions' catalogues, in every locale, as intl-messageformat formats it (plain text is not compiled)", () => {
    const values = new Proxy({}, { get: () => 3, has: () => true, ownKeys: () => [], getOwnPropertyDescriptor: () => undefined }) as Record<string, number>;
    let plain = 0;
    for (const catalogue of [playerMessages, landingMessages, captionMessages] as Catalogue<string>[]) {
      for (const locale of supportedLocales) {
        const t = translator(catalogue, locale);
        for (const [id, text] of Object.entries(catalogue[locale])) {
          const expected = String(new IntlMessageFormat(text, locale).format(values));
          expect(t(id, values), `${locale} ${id}`).toBe(expected);
          if (!/[{}'<]/.test(text)) plain++;
        }
      }
    }
    // Most messages are plain labels: the path that skips compilation is the one the player takes.
    expect(plain).toBeGreaterThan(100);
  });
});
