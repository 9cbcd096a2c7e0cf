import Negotiator from "negotiator";
import { resolveLocale, supportedLocales } from "@/shared/i18n/locale";

/**
 * The page language for a viewer with no share to take it from (an unknown or disabled share):
 * the catalogue their Accept-Language prefers (negotiator: by q, and a tag matches its language's
 * catalogue, de-AT → de, pt → pt-BR), else English. The share's own locale is not looked up for a
 * disabled share: the page gives no hint which it is.
 */
export function acceptedLocale(acceptLanguage: string | null): string {
  const negotiator = new Negotiator({ headers: { "accept-language": acceptLanguage ?? "" } });
  // "pt" too, so that pt-PT finds the Brazilian catalogue rather than English (resolveLocale).
  return resolveLocale(negotiator.language([...supportedLocales, "pt"]));
}
