import "../../globals.css";
import { LandingLocaleProvider } from "@/components/landing-locale";
import { textDirection } from "@/shared/i18n/locale";
import { landingLocale } from "./load-share";

// Per request, for the share and for the CSP nonce (proxy.ts) Next puts on every script.
export const dynamic = "force-dynamic";

type Props = { children: React.ReactNode; params: Promise<{ slug: string }> };

// The landing page is its own root layout so that <html lang dir> follows the share's locale.
export default async function LandingLayout({ children, params }: Props) {
  const locale = await landingLocale((await params).slug);
  return (
    <html lang={locale} dir={textDirection(locale)}>
      <body className="min-h-screen bg-slate-950 font-sans text-slate-100 antialiased">
        <LandingLocaleProvider locale={locale}>{children}</LandingLocaleProvider>
      </body>
    </html>
  );
}
