"use client";

import { createContext, useContext, useMemo } from "react";
import { landingMessages, type LandingMessageId } from "@/shared/i18n/landing-messages";
import { translator, type Translate } from "@/shared/i18n/locale";

// The landing page's language, set once by app/v/[slug]/layout.tsx: its client parts (the
// consent banner) and its not-found page (which gets no params) read it from here.

const LandingLocale = createContext<string | null>(null);

export function LandingLocaleProvider({ locale, children }: { locale: string | null; children: React.ReactNode }) {
  return <LandingLocale.Provider value={locale}>{children}</LandingLocale.Provider>;
}

/** `t(id)` for the landing page's own words, in the page's language. */
export function useLandingText(): Translate<LandingMessageId> {
  const locale = useContext(LandingLocale);
  return useMemo(() => translator(landingMessages, locale), [locale]);
}
