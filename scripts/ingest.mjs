#!/usr/bin/env node
// `npm run ingest`: the standalone ingest server (scripts/ingest-server.ts), run through its bundle (scripts/bundled.mjs).
import { importBundled } from "./bundled.mjs";

const { main } = await importBundled("scripts/ingest-server.ts");
await main();
