import type { Metadata } from "next";
import "./globals.css";

// Per request like every page: its scripts carry the response's CSP nonce (proxy.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Not found · Reelbind" };

// Unmatched URLs: the app has several root layouts (console, landing page), so none of them owns this page.
export default function GlobalNotFound() {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        <main className="mx-auto mt-24 max-w-md px-6 text-center">
          <h1 className="text-2xl font-semibold">Page not found</h1>
        </main>
      </body>
    </html>
  );
}
