import { IntlMessageFormat } from "intl-messageformat";

// The locales the player and the landing page speak, and how a share's locale (BCP 47) picks
// one: the exact tag, else its language, else English. Messages are ICU MessageFormat strings
// (intl-messageformat, FormatJS), never concatenated. Browser-safe: no Node APIs.

export const supportedLocales = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "ja", "ar"] as const;
export type SupportedLocale = (typeof supportedLocales)[number];

/** A catalogue: for each supported locale, every message id of the English one. */
export type Catalogue<Id extends string> = { en: Record<Id, string> } & Record<Exclude<SupportedLocale, "en">, Record<Id, string>>;

const supported = new Set<string>(supportedLocales);
const rightToLeft = new Set(["ar", "he", "fa", "ur"]);

/** The canonical form of a BCP 47 tag, or null when it is not one. */
export function canonicalLocale(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The catalogue locale for a share's locale: the tag itself (pt-BR), else its language (de-AT → de), else en. */
export function resolveLocale(tag: string | null | undefined): SupportedLocale {
  const canonical = tag ? canonicalLocale(tag) : null;
  if (!canonical) return "en";
  if (supported.has(canonical)) return canonical as SupportedLocale;
  const language = new Intl.Locale(canonical).language;
  if (supported.has(language)) return language as SupportedLocale;
  // pt-PT and every other Portuguese reads the Brazilian catalogue rather than English.
  if (language === "pt") return "pt-BR";
  return "en";
}

/** "rtl" for Arabic, Hebrew, Persian and Urdu (by the tag's language, whatever catalogue it reads). */
export function textDirection(tag: string | null | undefined): "ltr" | "rtl" {
  const canonical = tag ? canonicalLocale(tag) : null;
  return canonical && rightToLeft.has(new Intl.Locale(canonical).language) ? "rtl" : "ltr";
}

/** What makes a message more than plain text: arguments and plurals ({ }), quoting (') and tags (<b>). */
const icuSyntax = /[{}'<]/;

export type Translate<Id extends string> = (id: Id, values?: Record<string, string | number>) => string;

/**
 * `t(id, values)` for one catalogue in the locale a share's tag resolves to. Numbers and plurals
 * in a message are formatted for the share's own tag (de-AT, not de), and compiled messages are
 * kept: a player formats the same few strings many times.
 */
export function translator<Id extends string>(catalogue: Catalogue<Id>, tag: string | null | undefined): Translate<Id> {
  const locale = resolveLocale(tag);
  const formatLocale = (tag && canonicalLocale(tag)) || locale;
  const compiled = new Map<Id, IntlMessageFormat | string>();
  return (id, values) => {
    let message = compiled.get(id);
    if (message === undefined) {
      const text = catalogue[locale][id] ?? catalogue.en[id];
      // Plain text formats as itself; compiling it would only cost time (each compilation resolves
      // the locale against every Intl formatter: ~50 ms of a player's start for its labels).
      message = icuSyntax.test(text) ? new IntlMessageFormat(text, formatLocale) : text;
      compiled.set(id, message);
    }
    return typeof message === "string" ? message : String(message.format(values));
  };
}

