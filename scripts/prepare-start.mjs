#!/usr/bin/env node
// `npm start`'s first step, run by scripts/start.mjs in a process of its own: checks the
// configuration, builds the browser bundles, and builds the app when the sources changed since
// the last build, under the checkout's build lock (scripts/build-app.mjs). Exits 0 when the app
// is ready to serve; 1, saying why, when the sources changed while another server from this
// checkout runs (its .next is not replaced under it).
import { buildRefusal, isBuilt, registerServer, runNextBuild, serverEnv as buildEnv, sourceFingerprint, withBuildLock } from "./build-app.mjs";
import { importBundled } from "./bundled.mjs";

// Check the configuration before spending a minute on a build; the server checks it again at start.
const serverEnv = buildEnv();
const { parseConfig } = await importBundled("lib/config.ts");
let config;
try {
  config = parseConfig(serverEnv);
} catch (error) {
  if (error?.code !== "CONFIG_INVALID") throw error;
  console.error(error.message);
  process.exit(1);
}

// A first start on the embedded database creates it here, not in the server (see the function).
if (!config.databaseUrl) {
  const { createPgliteClusterIfMissing } = await importBundled("lib/db/index.ts");
  try {
    await createPgliteClusterIfMissing(config.dataDir);
  } catch (error) {
    if (error?.code !== "DATA_DIR_LOCKED") throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// Under the checkout's build lock (scripts/build-app.mjs): whether to build, the build, and this
// start's place among the servers that read .next (start.mjs, the parent, serves once this exits,
// and removes the entry when it exits), so that no other start rebuilds under it.
const status = await withBuildLock(async () => {
  const fingerprint = sourceFingerprint();
  if (!isBuilt(fingerprint)) {
    const refusal = buildRefusal("The sources changed since the last build");
    if (refusal) {
      console.error(refusal);
      return 1;
    }
  }
  // The browser bundles are outputs of browser/ (public/sdk, public/player: left out of the fingerprint); building them takes a second.
  const { buildBrowserBundles } = await import("./build-browser.mjs");
  await buildBrowserBundles({ quiet: true });
  if (!isBuilt(fingerprint)) {
    console.log("Building Reelbind (first start or sources changed)…");
    const built = runNextBuild(fingerprint, serverEnv);
    if (built !== 0) return built;
  }
  if (process.env.REELBIND_SERVER_PID) registerServer(Number(process.env.REELBIND_SERVER_PID), Number(process.env.PORT ?? 3000));
  return 0;
});
process.exit(status);
