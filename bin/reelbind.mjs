#!/usr/bin/env node
// The `reelbind` CLI: loads the TypeScript sources through tsx and runs lib/cli/main.ts.
import { fileURLToPath } from "node:url";
import path from "node:path";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Paths in the environment are relative to where the user ran the command; the code runs from the root.
if (process.env.DATA_DIR) process.env.DATA_DIR = path.resolve(process.env.DATA_DIR);
process.chdir(root);
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
