#!/usr/bin/env node
// Builds the browser bundles with esbuild: the host-page SDK into public/sdk/ and the player
// iframe's script into public/player/. `npm run build` and `npm start` run it before Next's build.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Entry (under browser/) → output (under public/). */
export const browserBundles = [
  { entry: "browser/sdk/player-embed.ts", outfile: "public/sdk/player-embed.global.js" },
  { entry: "browser/sdk/player-tracking.ts", outfile: "public/sdk/player-tracking.global.js" },
  { entry: "browser/player/player.ts", outfile: "public/player/player.js" },
];

export async function buildBrowserBundles({ quiet = false } = {}) {
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
