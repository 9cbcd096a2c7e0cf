import { resolveLocale, supportedLocales } from "@/shared/i18n/locale";

/**
 * The page language for a viewer with no share to take it from (an unknown or disabled share):
 * the first of their Accept-Language tags that a catalogue speaks, by q, else English. The
 * share's own locale is not looked up for a disabled share: the page gives no hint which it is.
 */
export function acceptedLocale(acceptLanguage: string | null): string {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter(({ tag, q }) => tag && tag !== "*" && Number.isFinite(q) && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = resolveLocale(tag);
    if (locale !== "en" || tag.toLowerCase().startsWith("en")) return locale;
  }
  return supportedLocales[0];
}
