import "../../globals.css";
import { loadShare } from "./load-share";

// Per request, for the share and for the CSP nonce (proxy.ts) Next puts on every script.
export const dynamic = "force-dynamic";

type Props = { children: React.ReactNode; params: Promise<{ slug: string }> };

// The landing page is its own root layout so that <html lang> follows the share's locale.
export default async function LandingLayout({ children, params }: Props) {
  const share = await loadShare((await params).slug);
  return (
    <html lang={share?.locale ?? "en"}>
      <body className="min-h-screen bg-slate-950 font-sans text-slate-100 antialiased">{children}</body>
    </html>
  );
}
