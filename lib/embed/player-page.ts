import type { PageManifest } from "@/shared/embed-protocol";
import { textDirection } from "@/shared/i18n/locale";

// The player iframe's document: no React, no framework runtime — a box, the manifest as JSON
// and one deferred script (public/player/player.js, built from browser/player). The less the
// iframe loads, the sooner its first frame.

/** JSON inside <script>: nothing in it can close the element or break the line. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Who may frame the player. A share is public, so anyone may embed it; an embed session with
 * allowed origins may be framed only by them (and by the app itself, e.g. the console).
 */
function frameAncestors(manifest: PageManifest | null): string {
  return manifest?.allowedOrigins ? ["'self'", ...manifest.allowedOrigins].join(" ") : "*";
}

export function playerPageHeaders(manifest: PageManifest | null): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // lottie-web writes style attributes on the SVG it builds.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(manifest)}`,
  ].join("; ");
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": csp,
    // The manifest carries a freshly minted ingest token: never reuse a cached copy.
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  };
}

export function renderPlayerPage(manifest: PageManifest): string {
  const lang = manifest.locale ?? "en";
  const dir = textDirection(manifest.locale);
  const files = manifest.template?.files;
  const preload = [
    files?.templateJson && `<link rel="preload" href="${escapeHtml(files.templateJson)}" as="fetch" crossorigin>`,
    files?.posterFile && `<link rel="preload" href="${escapeHtml(files.posterFile)}" as="image">`,
  ]
    .filter(Boolean)
    .join("");
  return `<!doctype html><html lang="${escapeHtml(lang)}" dir="${dir}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(manifest.title)}</title>${preload}
<style>html,body{margin:0;height:100%;background:transparent;overflow:hidden}#reelbind-player{position:relative;width:100%;height:100%}</style>
<script src="/player/player.js" defer></script></head>
<body><div id="reelbind-player" data-state="loading"></div>
<script id="reelbind-manifest" type="application/json">${scriptJson(manifest)}</script></body></html>`;
}

/** The notice page's language (it sets lang and dir) and title. */
export type UnavailablePage = { lang: string; title: string };

/** What the iframe shows instead of a player: the share is unavailable or the session is invalid. */
export function renderUnavailablePage(message: string, { lang, title }: UnavailablePage): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}" dir="${textDirection(lang)}"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>html,body{margin:0;height:100%;background:#0f172a;color:#cbd5e1;font:16px system-ui,sans-serif}body{display:flex;align-items:center;justify-content:center;text-align:center;padding:1rem;box-sizing:border-box}</style>
</head><body><p>${escapeHtml(message)}</p></body></html>`;
}
