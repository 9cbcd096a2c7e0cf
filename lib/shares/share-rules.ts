// The share's field rules (docs/design.md, Management API), with no server dependency: the API's PUT schema
// (lib/shares/contract.ts) and the console's form (lib/console/shares/share-form.ts) both use them,
// so the browser checks exactly what the server will.

import { canonicalLocale } from "@/shared/i18n/locale";

export const shareTextLimits = { publicTitle: 160, publicSubtitle: 280, ctaLabel: 80 } as const;

export const maxPersonalizationDataBytes = 16 * 1024;

/** What a share's locale must be, in the API's 422 and the console's form alike. */
export const localeRule = "must be language-REGION, a BCP 47 tag such as en-US, de-DE, pt-BR or ar-EG";

/**
 * A share's locale in canonical BCP 47 form (EN-us → en-US), or null when it is none. The
 * interface contract asks for the language-REGION form: a region is required (en-US, es-419,
 * zh-Hant-TW), and the language must be a 2- or 3-letter code (BCP 47's 5–8-letter registered
 * languages are unused, and "english" would otherwise pass as one).
 */
export function shareLocale(value: string): string | null {
  if (value.length > 35) return null;
  const canonical = canonicalLocale(value);
  if (!canonical) return null;
  const { language, region } = new Intl.Locale(canonical);
  return /^[a-z]{2,3}$/.test(language) && region ? canonical : null;
}

/** Whether a slug could name a share at all (issued ones are 22 base62 characters); anything else is never looked up. */
export const isWellFormedSlug = (slug: string) => /^[0-9A-Za-z]{1,64}$/.test(slug);

/** Length in Unicode code points, as PostgreSQL's char_length counts it (an emoji is one character). */
export const characters = (value: string) => [...value].length;

/**
 * An absolute http(s) URL written exactly: no surrounding or embedded whitespace or control
 * characters, so a browser cannot read it as another scheme (`javascript:`, ` javascript:`).
 */
export function isExactHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
