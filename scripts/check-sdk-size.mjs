#!/usr/bin/env node
// Prints the gzip -9 size of each SDK bundle and fails when one is over its budget (issue 5:
// bootstrap ≤ 3 KB, tracking ≤ 4 KB). The bundles are built first, so the bytes are the
// ones that ship.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildBrowserBundles } from "./build-browser.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const budgets = [
  { file: "public/sdk/player-embed.global.js", budget: 3 * 1024 },
  { file: "public/sdk/player-tracking.global.js", budget: 4 * 1024 },
];

await buildBrowserBundles({ quiet: true });
let failed = false;
for (const { file, budget } of budgets) {
  const bytes = readFileSync(path.join(root, file));
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  const ok = gzipped <= budget;
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "OVER"} ${file}: ${bytes.length} B, ${gzipped} B gzip -9 (budget ${budget} B)`);
}
process.exit(failed ? 1 : 0);
