// `npm run lint:openapi`: lints the OpenAPI document, as the route files' contracts build it (no server
// needed), with Redocly's recommended ruleset (redocly.yaml). Exits with redocly's status: 1 on
// any error. Offline: telemetry and the update check are off.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "./openapi-document";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(path.join(tmpdir(), "reelbind-openapi-"));
const file = path.join(dir, "openapi.json");
try {
  // The served document names the request's origin; any non-local origin stands for it here.
  writeFileSync(file, JSON.stringify(openApiDocument("https://reelbind.invalid"), null, 2));
  const redocly = path.join(root, "node_modules", ".bin", "redocly");
  const result = spawnSync(redocly, ["lint", file, "--config", path.join(root, "redocly.yaml"), "--format", "stylish"], {
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (result.error) console.error(`lint:openapi could not run redocly (${result.error.message}): run npm ci.`);
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
