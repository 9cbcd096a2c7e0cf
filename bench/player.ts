// npm run bench:player – how fast a viewer sees the video, in headless Chromium on loopback:
//   • first frame: from the player iframe's navigation to its first rendered frame, and from
//     its document load (DOMContentLoaded) to that frame, for a LottieStandalone template (the
//     bootstrapped weather card) and a Raster one (MP4 + poster);
//   • the landing page's Largest Contentful Paint for both;
//   • the baseline, measured in the same run: a bare page that loads lottie-web and the same
//     Lottie file from a plain node:http server and draws its first frame.
// Each sample is a fresh browser context (cold HTTP cache). Prints a table and JSON.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { freePort } from "@/testing/free-port";
import { startQuickStartApp, type QuickStartApp } from "./processes";

const samples = Number(process.env.BENCH_PLAYER_SAMPLES ?? 15);
const fixtures = path.join(process.cwd(), "testing/fixtures");

type Timing = { firstFrameMs: number; afterLoadMs: number };
type Row = { label: string; firstFrame: Stats; afterLoad: Stats; lcp?: Stats };
type Stats = { p50: number; p90: number; min: number };

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: Math.round(at(0.5)), p90: Math.round(at(0.9)), min: Math.round(sorted[0]!) };
}

/** The baseline: lottie-web's own light build and the weather card's files, served as they are. */
async function startBaselineServer(): Promise<{ url: string; close: () => void }> {
  const lottieJs = readFileSync(path.join(process.cwd(), "node_modules/lottie-web/build/player/lottie_light.min.js"));
  const card = path.join(fixtures, "lottie/weather-card");
  const page = `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%}#a{width:100%;height:100%}</style>
<script src="/lottie.js" defer></script><script src="/start.js" defer></script></head><body><div id="a"></div></body></html>`;
  const start = `fetch("/data.json").then(function(r){return r.json()}).then(function(data){
var anim=lottie.loadAnimation({container:document.getElementById("a"),renderer:"svg",autoplay:false,loop:false,animationData:data,assetsPath:"/images/"});
anim.addEventListener("DOMLoaded",function(){requestAnimationFrame(function(){performance.mark("reelbind:first-frame")})});});`;
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const send = (type: string, body: Buffer | string) => res.writeHead(200, { "Content-Type": type }).end(body);
    if (url === "/") return send("text/html", page);
    if (url === "/lottie.js") return send("text/javascript", lottieJs);
    if (url === "/start.js") return send("text/javascript", start);
    if (url === "/data.json") return send("application/json", readFileSync(path.join(card, "data.json")));
    if (/^\/images\/img_[01]\.jpg$/.test(url)) return send("image/jpeg", readFileSync(path.join(card, url)));
    res.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}

/** Loads url in a fresh context and reads the page's first-frame mark and its DOMContentLoaded. */
async function firstFrame(browser: Browser, url: string): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 720, height: 720 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName("reelbind:first-frame").length > 0, null, { timeout: 15_000 });
    return await page.evaluate(() => {
      const frame = performance.getEntriesByName("reelbind:first-frame")[0]!.startTime;
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { firstFrameMs: frame, afterLoadMs: frame - navigation.domContentLoadedEventEnd };
    });
  } finally {
    await context.close();
  }
}

/** The landing page's LCP once the player has drawn its first frame (the LCP cannot change after that but for the player's own box). */
async function landingLcp(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number };
      w.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
    });
    await page.goto(url);
    const player = page.frameLocator('[data-testid="player-slot"] iframe').locator("#reelbind-player[data-first-frame]");
    await player.waitFor({ state: "attached", timeout: 15_000 });
    await page.waitForTimeout(300);
    return await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  } finally {
    await context.close();
  }
}

async function measure(browser: Browser, label: string, url: string, landingUrl?: string): Promise<Row> {
  await firstFrame(browser, url); // one warm-up: the server's first request compiles and caches
  const timings: Timing[] = [];
  for (let i = 0; i < samples; i++) timings.push(await firstFrame(browser, url));
  const row: Row = {
    label,
    firstFrame: stats(timings.map((t) => t.firstFrameMs)),
    afterLoad: stats(timings.map((t) => t.afterLoadMs)),
  };
  if (landingUrl) {
    await landingLcp(browser, landingUrl);
    const lcps: number[] = [];
    for (let i = 0; i < samples; i++) lcps.push(await landingLcp(browser, landingUrl));
    row.lcp = stats(lcps);
  }
  return row;
}

/** Uploads the Raster fixture into the demo project and points a DEV share at it (DEV serves the newest Testing template). */
async function createRasterShare(app: QuickStartApp): Promise<string> {
  const auth = { Authorization: `Bearer ${app.token}` };
  const form = new FormData();
  form.set("kind", "Raster");
  form.set("name", "Bench raster");
  form.set("videoFile", new Blob([readFileSync(path.join(fixtures, "video/background-640x360-6s.mp4"))], { type: "video/mp4" }), "background.mp4");
  form.set("posterFile", new Blob([readFileSync(path.join(fixtures, "video/poster-640x360.png"))], { type: "image/png" }), "poster.png");
  const uploaded = await fetch(`${app.baseUrl}/api/Projects/${app.projectId}/templates/upload`, { method: "POST", headers: auth, body: form });
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
  const credential = (await (
    await fetch(`${app.baseUrl}/api/credentials`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: app.projectId, name: "bench" }),
    })
  ).json()) as { id: string };
  const share = await fetch(`${app.baseUrl}/api/Projects/${app.projectId}/public-video-shares/DEV`, {
    method: "PUT",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ publicTitle: "Bench raster", apiCredentialId: credential.id }),
  });
  if (share.status !== 201) throw new Error(`share: ${share.status} ${await share.text()}`);
  return ((await share.json()) as { slug: string }).slug;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-bench-player-"));
  const app = await startQuickStartApp(dataDir);
  const baseline = await startBaselineServer();
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const lottieSlug = new URL(app.shareUrl).pathname.split("/").pop()!;
    const rasterSlug = await createRasterShare(app);
    const rows = [
      await measure(browser, "baseline: bare lottie-web page, weather card", baseline.url),
      await measure(browser, "player: LottieStandalone (weather card)", `${app.baseUrl}/embed/${lottieSlug}`, app.shareUrl),
      await measure(browser, "player: Raster (MP4 + poster)", `${app.baseUrl}/embed/${rasterSlug}`, `${app.baseUrl}/v/${rasterSlug}`),
    ];
    const base = rows[0]!.firstFrame.p50;
    console.log(`\n${samples} samples each, fresh browser context per sample (cold cache), headless Chromium, loopback\n`);
    console.log("| page | first frame p50 / p90 (ms) | after DOMContentLoaded p50 / p90 (ms) | × baseline (p50) | landing LCP p50 / p90 (ms) |");
    console.log("|---|---|---|---|---|");
    for (const row of rows) {
      const lcp = row.lcp ? `${row.lcp.p50} / ${row.lcp.p90}` : "–";
      console.log(
        `| ${row.label} | ${row.firstFrame.p50} / ${row.firstFrame.p90} | ${row.afterLoad.p50} / ${row.afterLoad.p90} | ${(row.firstFrame.p50 / base).toFixed(2)} | ${lcp} |`,
      );
    }
    console.log(JSON.stringify({ samples, rows }));
  } finally {
    await browser.close();
    baseline.close();
    app.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
