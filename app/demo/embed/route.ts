import { getConfig } from "@/lib/config";

// GET /demo/embed?share={slug} | ?session={token} – a customer site embedding the player with
// the SDK, as docs/api.md shows it. Open it on another origin than PUBLIC_BASE_URL (e.g.
// http://127.0.0.1:3000 when the app is http://localhost:3000) to see a cross-origin embed.
// Options: autoplay=1, muted=1, consent=granted|denied, viewer=<id>.
export async function GET() {
  const { publicBaseUrl, ingestBaseUrl } = getConfig();
  const player = new URL(publicBaseUrl).origin;
  const ingest = new URL(ingestBaseUrl).origin;
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${player}`,
    "style-src 'self' 'unsafe-inline'",
    `frame-src ${player}`,
    `connect-src 'self' ${ingest}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Acme Energy – your plan (Reelbind embed demo)</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2937;background:#f8fafc}
header{background:#0f766e;color:#fff;padding:1rem 2rem;font-weight:600}
main{max-width:52rem;margin:2rem auto;padding:0 1rem;display:grid;gap:1rem}
#player{aspect-ratio:16/9;background:#0f172a;border-radius:.75rem;overflow:hidden}
#controls{display:flex;gap:.5rem;flex-wrap:wrap}
button{padding:.4rem .9rem;border-radius:.5rem;border:1px solid #94a3b8;background:#fff;cursor:pointer}
#log{font:13px/1.4 ui-monospace,monospace;background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;padding:.75rem 2rem;max-height:16rem;overflow:auto}
</style>
<script src="${player}/sdk/player-embed.global.js" defer></script>
<script src="/demo/embed-demo.js" defer></script></head>
<body><header>Acme Energy</header>
<main><h1>Your plan, explained in one minute</h1>
<div id="player" data-testid="demo-player"></div>
<div id="controls">
<button type="button" data-command="play">Play</button><button type="button" data-command="pause">Pause</button>
<button type="button" data-command="mute">Mute</button><button type="button" data-command="unmute">Unmute</button>
<button type="button" data-command="consent-granted">Accept analytics</button><button type="button" data-command="consent-denied">Decline analytics</button>
</div>
<h2>SDK callbacks</h2><ol id="log" aria-live="polite"></ol></main></body></html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": csp,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
  });
}
