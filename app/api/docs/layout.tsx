import type { Metadata } from "next";

// Per request like every page: its scripts carry the response's CSP nonce (proxy.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API reference · Reelbind" };

// A root layout of its own: the viewer brings its own styles, and the console's (Tailwind's
// reset included) would restyle it.
export default function ApiReferenceLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
