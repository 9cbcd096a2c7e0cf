// npm run bench:memory – resident memory of the built app (`npm start`'s process tree) at rest
// after a first start, under load, and at rest again after the load, on the embedded database
// (PGlite) and on the PostgreSQL server of BENCH_DATABASE_URL (a fresh database is created and
// dropped; default postgres://postgres@127.0.0.1:5432/postgres). The baseline, measured in the
// same run, is a bare Node.js process doing nothing. Reported in docs/benchmarks.md.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { ctaClick, type Manifest } from "@/e2e/wire-events";
import { startApp } from "@/testing/start-app";
import { benchSecrets, treeRss } from "./processes";

const settleMs = 10_000;
/** Past the preview renderer's idle release (60 s, lib/skottie/preview-renderer.ts). */
const restAfterLoadMs = 75_000;
const loadMs = Number(process.env.BENCH_MEMORY_LOAD_MS ?? 20_000);
const mb = (bytes: number) => Math.round(bytes / 1_048_576);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bareNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  await sleep(1_000);
  const rss = treeRss(child.pid!);
  child.kill();
  return rss;
}

/** Pages, manifests, API reads, ingest batches and preview renders (the Skottie renderer) for loadMs. */
async function load(base: string, token: string, projectId: string, slug: string) {
  const manifest = (await (await fetch(`${base}/api/embed/manifest?share=${slug}`)).json()) as Manifest;
  const templateId = manifest.template!.id;
  const auth = { Authorization: `Bearer ${token}` };
  const until = Date.now() + loadMs;
  let requests = 0;
  const worker = async (send: (i: number) => Promise<Response>) => {
    for (let i = 0; Date.now() < until; i++) {
      await (await send(i)).arrayBuffer();
      requests++;
    }
  };
  await Promise.all([
    worker(() => fetch(`${base}/v/${slug}`)),
    worker(() => fetch(`${base}/api/embed/manifest?share=${slug}`)),
    worker(() => fetch(`${base}/api/Projects/${projectId}/templates`, { headers: auth })),
    worker(() =>
      fetch(`${manifest.ingest.url}/analytics/v1/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${manifest.ingest.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ sent_at: new Date().toISOString(), events: Array.from({ length: 20 }, () => ctaClick(manifest)) }),
      }),
    ),
    worker((i) =>
      fetch(`${base}/api/Projects/${projectId}/templates/${templateId}/preview`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ data: { firstName: `Ana ${i}` } }),
      }),
    ),
  ]);
  return requests;
}

async function measure(label: string, databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "reelbind-bench-memory-"));
  const env: NodeJS.ProcessEnv = { ...process.env, ...benchSecrets, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? "" };
  const app = await startApp(env);
  try {
    await sleep(settleMs);
    const idle = treeRss(app.child.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRss(app.child.pid!))), 250);
    const requests = await load(app.baseUrl, app.token, app.projectId, new URL(app.shareUrl).pathname.split("/").pop()!);
    clearInterval(sampler);
    await sleep(restAfterLoadMs);
    const after = treeRss(app.child.pid!);
    return { label, idle, peak, after, requests };
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = `reelbind_bench_memory_${randomUUID().slice(0, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${database}`);
  try {
    const baseline = await bareNodeRss();
    const results = [await measure("PGlite (embedded)", undefined), await measure("PostgreSQL", Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString())];
    console.log(`Baseline: a bare Node.js process, ${mb(baseline)} MB.`);
    console.log(`Load: ${loadMs / 1000} s of landing pages, manifests, API lists, ingest batches and preview renders, one request at a time per kind.\n`);
    console.log("| database | at rest after start | peak under load | at rest 75 s after load | requests | at rest ÷ bare Node |");
    console.log("|---|---|---|---|---|---|");
    for (const r of results) {
      console.log(`| ${r.label} | ${mb(r.idle)} MB | ${mb(r.peak)} MB | ${mb(r.after)} MB | ${r.requests} | ${(r.idle / baseline).toFixed(1)}× |`);
    }
  } finally {
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await main();
