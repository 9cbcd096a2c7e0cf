import type { Metadata } from "next";
import "../globals.css";

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
