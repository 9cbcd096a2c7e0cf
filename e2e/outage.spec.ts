import diagnosticsChannel from "node:diagnostics_channel";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { startPrivatePostgres, type PrivatePostgres } from "../testing/private-postgres";
import { startApp, type StartedApp } from "../testing/start-app";
import { ctaClick, type Manifest } from "./wire-events";

// The built app on a PostgreSQL cluster of this test's own, with ingest and page traffic
// running: the cluster is stopped and started again, then the app gets SIGTERM with batches in
// flight. Five rounds, since a hang after an outage was intermittent. The figures it prints
// (recovery and shutdown times) are the ones in docs/reliability.md; the test asserts what
// happens (503 not 500, recovery, exit 0, nothing lost or duplicated), never how fast: each
// wait on an event is capped only to catch a hang.

// Skipped on PGlite on purpose: its PostgreSQL cluster is its own on either pass, so the PGlite
// pass would run the same test again; .ci/run runs it in its PostgreSQL pass (npm run test:postgres).
test.skip(!process.env.E2E_DATABASE_URL, "a PostgreSQL outage: runs in the PostgreSQL pass (E2E_DATABASE_URL set)");

const rounds = 5;
const outageMs = 3_000;
/** Caps on waits for an event (the first batch accepted after the outage, the exit after SIGTERM): hang guards only. */
const hangGuardMs = 120_000;
const requestTimeoutMs = 60_000;

type Figures = {
  statuses: Record<string, Record<number | string, number>>;
  missingRetryAfter: number;
  /** What a viewer's browser showed of the landing page during the outage. */
  landingPageSeen: { status: number | null; heading: string | null };
  recoveryMs: number;
  shutdownMs: number;
  exitCode: number | null;
  inFlight: Record<string, number>;
  answeredBeforeSigterm: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
};

/** Sends one batch; the event ids it carried are acknowledged when it answers 202. */
async function sendBatch(manifest: Manifest, events: { event_id: string }[]): Promise<number | string> {
  try {
    const response = await fetch(`${manifest.ingest.url}/analytics/v1/events`, {
      method: "POST",
      headers: { Authorization: `Bearer ${manifest.ingest.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ sent_at: new Date().toISOString(), events }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return `network error ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}`;
  }
}

async function outageRound(cluster: PrivatePostgres, dataDir: string, round: number, page: Page): Promise<Figures> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: cluster.url };
  delete env.TOKEN_SECRETS;
  delete env.AUTH_SECRET;
  let app: StartedApp | undefined;
  try {
    app = await startApp(env, 240_000);
    const base = app.baseUrl;
    const slug = new URL(app.shareUrl).pathname.split("/").pop()!;
    const manifestResponse = await fetch(`${base}/api/embed/manifest?share=${slug}`);
    expect(manifestResponse.status, `${await manifestResponse.clone().text()}\n${app.output()}`).toBe(200);
    const manifest = (await manifestResponse.json()) as Manifest;
    const pages: Record<string, { url: string; headers?: Record<string, string> }> = {
      "landing page": { url: `${base}/v/${slug}` },
      "player iframe": { url: `${base}/embed/${slug}` },
      poster: { url: `${base}/api/embed/posters/${slug}` },
      health: { url: `${base}/api/health` },
      "API shares": { url: `${base}/api/Projects/${app.projectId}/public-video-shares`, headers: { Authorization: `Bearer ${app.token}` } },
    };

    const figures: Figures = {
      statuses: {},
      missingRetryAfter: 0,
      landingPageSeen: { status: null, heading: null },
      recoveryMs: Number.NaN,
      shutdownMs: Number.NaN,
      exitCode: null,
      inFlight: {},
      answeredBeforeSigterm: 0,
      acknowledged: 0,
      lost: 0,
      duplicated: 0,
    };
    const count = (route: string, status: number | string) => {
      const byStatus = (figures.statuses[route] ??= {});
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    };
    const acknowledged: string[] = [];
    let databaseBackAt = 0;

    let trafficRunning = true;
    const traffic = (async () => {
      for (let tick = 0; trafficRunning; tick++) {
        const events = Array.from({ length: 5 }, () => ctaClick(manifest));
        const batch = sendBatch(manifest, events).then((status) => {
          count("ingest", status);
          if (status !== 202) return;
          acknowledged.push(...events.map((event) => event.event_id));
          if (databaseBackAt && Number.isNaN(figures.recoveryMs)) figures.recoveryMs = Date.now() - databaseBackAt;
        });
        const [route, page] = Object.entries(pages)[tick % Object.keys(pages).length]!;
        const visit = fetch(page.url, { headers: page.headers, signal: AbortSignal.timeout(requestTimeoutMs) })
          .then(async (response) => {
            await response.arrayBuffer();
            count(route, response.status);
            if (response.status === 503 && !response.headers.get("retry-after")) figures.missingRetryAfter++;
          })
          .catch(() => count(route, "network error"));
        await Promise.race([Promise.all([batch, visit]), new Promise((resolve) => setTimeout(resolve, 50))]);
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await cluster.stop();
    const outageStarted = Date.now();
    const response = await page.goto(pages["landing page"]!.url);
    figures.landingPageSeen = {
      status: response?.status() ?? null,
      heading: await page.getByRole("heading").first().textContent().catch(() => null),
    };
    if (round === 1) await page.screenshot({ path: test.info().outputPath("landing-page-during-outage.png") });
    await new Promise((resolve) => setTimeout(resolve, outageMs - (Date.now() - outageStarted)));
    await cluster.start();
    databaseBackAt = Date.now();
    for (const deadline = Date.now() + hangGuardMs; Number.isNaN(figures.recoveryMs) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    trafficRunning = false;
    await traffic;

    // SIGTERM with 50 large batches in flight: each must be answered, and every 202 stored. The
    // signal goes once the client has written every batch's request headers (its body follows
    // on the same tick), while the server is busy with the first ones: most of their new
    // connections still wait in the kernel's accept queue, and must be answered too.
    let requestsWritten = 0;
    const countWritten = () => requestsWritten++;
    diagnosticsChannel.subscribe("undici:client:sendHeaders", countWritten);
    const inFlight = Array.from({ length: 50 }, () => Array.from({ length: 200 }, () => ctaClick(manifest)));
    const answers = inFlight.map((events) =>
      sendBatch(manifest, events).then((status) => {
        figures.inFlight[status] = (figures.inFlight[status] ?? 0) + 1;
        if (status === 202) acknowledged.push(...events.map((event) => event.event_id));
      }),
    );
    for (const deadline = Date.now() + hangGuardMs; requestsWritten < inFlight.length && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 5));
    diagnosticsChannel.unsubscribe("undici:client:sendHeaders", countWritten);
    figures.answeredBeforeSigterm = Object.values(figures.inFlight).reduce((sum, n) => sum + n, 0);
    const stopping = Date.now();
    figures.exitCode = await Promise.race([app.stop(), new Promise<null>((resolve) => setTimeout(() => resolve(null), hangGuardMs))]);
    figures.shutdownMs = Date.now() - stopping;
    await Promise.all(answers);

    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      const [stored] = await sql<{ n: number; copies: number }[]>`
        select count(distinct event_id)::int as n, count(*)::int as copies
        from analytics_events where event_id = any(${acknowledged}::uuid[])`;
      figures.acknowledged = acknowledged.length;
      figures.lost = acknowledged.length - stored!.n;
      figures.duplicated = stored!.copies - stored!.n;
    } finally {
      await sql.end();
    }
    console.log(`outage round ${round}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    if (app && app.child.exitCode === null && app.child.signalCode === null) process.kill(-app.child.pid!, "SIGKILL");
  }
}

test("a database outage with traffic running, then SIGTERM with batches in flight – five rounds on the built app", async ({ page }) => {
  test.setTimeout(rounds * 5 * hangGuardMs);
  const cluster = await startPrivatePostgres();
  // One DATA_DIR for every round, as one installation restarted: its blobs go with the database.
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-outage-"));
  try {
    for (let round = 1; round <= rounds; round++) {
      const figures = await outageRound(cluster, dataDir, round, page);
      for (const [route, statuses] of Object.entries(figures.statuses)) {
        const failures = Object.keys(statuses).filter((status) => status !== "503" && (status.startsWith("network error") || Number(status) >= 500));
        expect(failures, `round ${round}: ${route} answered ${JSON.stringify(statuses)}`).toEqual([]);
      }
      expect(figures.statuses["landing page"]?.[503], `round ${round}: the landing page answered 503 during the outage`).toBeGreaterThan(0);
      expect(figures.landingPageSeen, `round ${round}: the landing page in Chromium during the outage`).toEqual({
        status: 503,
        heading: "Temporarily unavailable",
      });
      expect(figures.missingRetryAfter, `round ${round}: 503s without Retry-After`).toBe(0);
      expect(figures.recoveryMs, `round ${round}: a batch was accepted again after the outage (waited up to ${hangGuardMs / 1000} s)`).not.toBeNaN();
      expect(figures.exitCode, `round ${round}: exit code after SIGTERM (waited up to ${hangGuardMs / 1000} s)`).toBe(0);
      expect(figures.answeredBeforeSigterm, `round ${round}: batches still in flight at SIGTERM`).toBeLessThan(50);
      expect(figures.inFlight, `round ${round}: the 50 batches sent before SIGTERM`).toEqual({ 202: 50 });
      expect(figures.lost, `round ${round}: acknowledged events not stored`).toBe(0);
      expect(figures.duplicated, `round ${round}: events stored twice`).toBe(0);
    }
  } finally {
    cluster.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
