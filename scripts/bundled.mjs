// TypeScript entry points run by plain Node.js, for the CLI (bin/reelbind.mjs), `npm run ingest`
// (scripts/ingest.mjs) and `npm start`'s first step (scripts/prepare-start.mjs): esbuild bundles
// the entry with the project's code it imports (packages stay imports, resolved from
// node_modules) into .reelbind/bundles/, once per state of the sources; later runs import that
// file. A run costs the sources' fingerprint (about 0.15 s) instead of compiling them on every
// start (tsx took about 6 s per CLI call), and tsx is a development tool only.
import { buildSync } from "esbuild";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sourceFingerprint } from "./build-app.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Two levels below the root, as lib/ files are: their import.meta.url-relative paths
// ("../../node_modules/…") resolve the same from a bundle.
const bundleDir = path.join(root, ".reelbind", "bundles");

/** The bundle of `entry` (a path from the root) for the sources as they are now; built when missing. */
function bundleFor(entry) {
  const source = statSync(path.join(root, entry));
  const key = createHash("sha256").update(`${sourceFingerprint()}\n${entry}:${source.size}:${source.mtimeMs}`).digest("hex").slice(0, 16);
  const name = entry.replace(/\.ts$/, "").replace(/[^A-Za-z0-9]+/g, "-");
  const file = path.join(bundleDir, `${name}.${key}.mjs`);
  if (existsSync(file)) return file;
  mkdirSync(bundleDir, { recursive: true });
  // Written aside and renamed: a run started meanwhile imports a whole bundle or builds its own.
  const partial = `${file}.${randomUUID()}.partial`;
  buildSync({
    entryPoints: [path.join(root, entry)],
    outfile: partial,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "@": root },
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
  renameSync(partial, file);
  // Bundles of earlier states of the sources are never read again.
  for (const old of readdirSync(bundleDir).filter((other) => other.startsWith(`${name}.`) && other !== path.basename(file) && !other.endsWith(".partial"))) {
    rmSync(path.join(bundleDir, old), { force: true });
  }
  return file;
}

/** Imports `entry` (a TypeScript file, as a path from the checkout's root) through its bundle. */
export function importBundled(entry) {
  return import(pathToFileURL(bundleFor(entry)).href);
}
