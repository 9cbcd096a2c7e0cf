// The share's field rules (docs/design.md, Management API), with no server dependency: the API's PUT schema
// (lib/shares/contract.ts) and the console's form (lib/console/shares/share-form.ts) both use them,
// so the browser checks exactly what the server will.

export const shareTextLimits = { publicTitle: 160, publicSubtitle: 280, ctaLabel: 80 } as const;

export const maxPersonalizationDataBytes = 16 * 1024;

export const localePattern = /^[a-z]{2}-[A-Z]{2}$/;

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
