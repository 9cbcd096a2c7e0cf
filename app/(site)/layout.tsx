import type { Metadata } from "next";
import "../globals.css";

// Rendered per request, every page under it: the CSP nonce (proxy.ts) is per response, and a
// page prerendered at build time would carry scripts without it, which the browser refuses.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Reelbind", template: "%s · Reelbind" },
  description: "Self-hosted personalized video",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
