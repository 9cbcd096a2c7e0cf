// TypeScript entry points run by plain Node.js, for the CLI (bin/reelbind.mjs), `npm run ingest`
// (scripts/ingest.mjs) and `npm start`'s first step (scripts/prepare-start.mjs): esbuild bundles
// the entry with the project's code it imports (packages stay imports, resolved from
// node_modules) into a directory of .reelbind/, once per state of the sources; later runs import
// it. A run costs the sources' fingerprint (about 0.15 s) instead of compiling them on every
// start (tsx took about 6 s per CLI call), and tsx is a development tool only.
import { buildSync } from "esbuild";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { nodeBundleOptions, sourceFingerprint } from "./build-app.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Bundles live two levels below the root, as lib/ files do: their import.meta.url-relative paths
// ("../../node_modules/…") resolve the same from a bundle.
const runDir = path.join(root, ".reelbind");
/** The sources' fingerprint, taken once per process: a process that imports two entries reads the tree once. */
let sourcesAtStart;

/**
 * The directory of `entry`'s bundle (a path from the root) for the sources as they are now, built
 * when missing: `main.mjs` and the chunks its dynamic imports load, so that what a run does not
 * reach (e.g. the database for a CLI command a running server answers) is never loaded.
 */
function bundleFor(entry) {
  const source = statSync(path.join(root, entry));
  sourcesAtStart ??= sourceFingerprint();
  const key = createHash("sha256").update(`${sourcesAtStart}\n${entry}:${source.size}:${source.mtimeMs}`).digest("hex").slice(0, 16);
  const prefix = `bundle-${entry.replace(/\.ts$/, "").replace(/[^A-Za-z0-9]+/g, "-")}.`;
  const dir = path.join(runDir, `${prefix}${key}`);
  if (existsSync(dir)) return dir;
  mkdirSync(runDir, { recursive: true });
  // Built aside and renamed: a run started meanwhile imports a whole bundle or builds its own.
  const partial = `${dir}.${randomUUID()}.partial`;
  buildSync({ ...nodeBundleOptions, entryPoints: { main: path.join(root, entry) }, outdir: partial, outExtension: { ".js": ".mjs" }, splitting: true });
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another run renamed its identical bundle into place first.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  // Bundles of earlier states of the sources are never read again.
  for (const old of readdirSync(runDir).filter((name) => name.startsWith(prefix) && name !== path.basename(dir) && !name.endsWith(".partial"))) {
    rmSync(path.join(runDir, old), { recursive: true, force: true });
  }
  return dir;
}

/** Imports `entry` (a TypeScript file, as a path from the checkout's root) through its bundle. */
export function importBundled(entry) {
  return import(pathToFileURL(path.join(bundleFor(entry), "main.mjs")).href);
}
