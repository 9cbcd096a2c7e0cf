"use client";

import { useLandingText } from "./landing-locale";

/** What a viewer sees for an unknown, rotated-out, disabled or revoked share: one page, no hint which. */
export function ShareUnavailable() {
  const t = useLandingText();
  return (
    <main className="mx-auto mt-24 flex max-w-md flex-col gap-3 px-6 text-center">
      <h1 className="text-2xl font-semibold">{t("unavailableHeading")}</h1>
      <p className="text-slate-400">{t("unavailableText")}</p>
    </main>
  );
}
