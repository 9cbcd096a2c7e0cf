#!/usr/bin/env node
// The `reelbind` CLI: lib/cli/main.ts, run through its bundle (scripts/bundled.mjs).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importBundled } from "../scripts/bundled.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Paths in the environment are relative to where the user ran the command; the code runs from the root.
if (process.env.DATA_DIR) process.env.DATA_DIR = path.resolve(process.env.DATA_DIR);
process.chdir(root);
const { main } = await importBundled("lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
