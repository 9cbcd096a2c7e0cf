#!/usr/bin/env node
// Builds the browser bundles with esbuild: the host-page SDK into public/sdk/ and the player
// iframe's script into public/player/; and copies the API reference's viewer, a package's own
// bundle, into public/api-reference/. `npm run build` and `npm start` run it before Next's build.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Entry (under browser/) → output (under public/). */
export const browserBundles = [
  { entry: "browser/sdk/player-embed.ts", outfile: "public/sdk/player-embed.global.js" },
  { entry: "browser/sdk/player-tracking.ts", outfile: "public/sdk/player-tracking.global.js" },
  { entry: "browser/player/player.ts", outfile: "public/player/player.js" },
];

/**
 * Scalar's standalone bundle, served as it ships (docs/adr/0140-api-reference-page-and-allow.md):
 * the page /api/docs loads it from this server, never from a CDN.
 */
const apiReferenceViewer = {
  from: "node_modules/@scalar/api-reference/dist/browser/standalone.js",
  to: "public/api-reference/scalar.js",
};

export async function buildBrowserBundles({ quiet = false } = {}) {
  mkdirSync(path.join(root, path.dirname(apiReferenceViewer.to)), { recursive: true });
  copyFileSync(path.join(root, apiReferenceViewer.from), path.join(root, apiReferenceViewer.to));
  for (const bundle of browserBundles) {
    await build({
      entryPoints: [path.join(root, bundle.entry)],
      outfile: path.join(root, bundle.outfile),
      bundle: true,
      format: "iife",
      platform: "browser",
      // Customer sites' visitors: browsers from the last few years, not only evergreen ones.
      target: ["es2019", "chrome80", "firefox78", "safari13"],
      minify: true,
      legalComments: "eof",
      alias: { "@": root },
      tsconfig: path.join(root, "tsconfig.json"),
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: quiet ? "warning" : "info",
    });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildBrowserBundles();
}
