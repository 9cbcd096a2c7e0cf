import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFreshDatabase, type FreshDatabase } from "./fresh-database";
import { freePort } from "./free-port";
import { startRoundRobinProxy, type RoundRobinProxy } from "./round-robin-proxy";
import { startS3Server, type S3Server } from "./s3-server";
import { startApp, startAppInstance, startIngestServer, type ServerProcess, type StartedApp } from "./start-app";

// The product deployed as docs/operations.md describes it, on one machine: app processes
// (`npm start`) and standalone ingest processes (`npm run ingest`), each with a DATA_DIR of
// its own, sharing one fresh PostgreSQL database, one S3 bucket (s3rver on loopback) and the
// secrets, behind a round-robin front that sends /analytics/ to the ingest processes and
// everything else to the apps. The first app bootstraps the demo data and prints its banner.
// The processes trust the front as deployments trust their proxy (TRUSTED_PROXIES=loopback, where
// it runs): a client's address is what the front appended to X-Forwarded-For — or, the clients
// being on loopback too, what they put there themselves.

export type ScaleOutCluster = {
  /** The front: PUBLIC_BASE_URL and INGEST_BASE_URL of every process. */
  front: RoundRobinProxy;
  /** apps[0] is the one that bootstrapped (its banner's values). */
  apps: [StartedApp, ...ServerProcess[]];
  ingests: ServerProcess[];
  database: FreshDatabase;
  s3: S3Server;
  /** What every process was started with (DATABASE_URL, secrets, S3, base URLs), DATA_DIR aside. */
  env: NodeJS.ProcessEnv;
  dataDirs: string[];
  stop: () => Promise<void>;
};

/** Fixed secrets, as a deployment sets them: every process must sign and verify with the same ones. */
export const clusterSecrets = {
  TOKEN_SECRETS: "scale1:scale-out-token-secret-0123456789abcdef",
  AUTH_SECRET: "scale-out-auth-secret-0123456789abcdef0123",
};

/** Ends a process within 20 s: SIGTERM, then SIGKILL to its group. */
async function stopProcess(server: ServerProcess): Promise<void> {
  await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
  if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, "SIGKILL");
}

/**
 * Starts it all on `serverUrl`'s PostgreSQL server. `extraEnv` goes to every process (e.g.
 * the ingest limits, which are per process). On failure, stops what it started.
 */
export async function startScaleOutCluster(options: { serverUrl: string; apps?: number; ingests?: number; extraEnv?: Record<string, string> }): Promise<ScaleOutCluster> {
  const started: { stop: () => Promise<void> }[] = [];
  const dataDirs: string[] = [];
  const stop = async () => {
    for (const part of started.reverse()) await part.stop().catch((error: unknown) => console.error("stopping the cluster:", error));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const database = await createFreshDatabase(options.serverUrl, "scale_out");
    started.push({ stop: database.drop });
    const s3 = await startS3Server();
    started.push({ stop: s3.close });
    const frontPort = await freePort();
    const frontUrl = `http://localhost:${frontPort}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...clusterSecrets,
      ...s3.env,
      TRUSTED_PROXIES: "loopback",
      ...options.extraEnv,
      DATABASE_URL: database.url,
      PUBLIC_BASE_URL: frontUrl,
      INGEST_BASE_URL: frontUrl,
    };
    const dataDir = (label: string) => {
      const dir = mkdtempSync(path.join(tmpdir(), `reelbind-scale-${label}-`));
      dataDirs.push(dir);
      return dir;
    };
    const track = <T extends ServerProcess>(server: T): T => {
      started.push({ stop: () => stopProcess(server) });
      return server;
    };

    // One after the other: the first migrates and bootstraps, the others find it all done.
    const first = track(await startApp({ ...env, DATA_DIR: dataDir("app-0") }));
    const apps: [StartedApp, ...ServerProcess[]] = [first];
    for (let i = 1; i < (options.apps ?? 2); i++) apps.push(track(await startAppInstance({ ...env, DATA_DIR: dataDir(`app-${i}`) })));
    const ingests = await Promise.all(
      Array.from({ length: options.ingests ?? 2 }, async (_, i) => track(await startIngestServer({ ...env, DATA_DIR: dataDir(`ingest-${i}`) }))),
    );
    const front = await startRoundRobinProxy({
      port: frontPort,
      upstreams: apps.map((app) => app.baseUrl),
      routes: [{ prefix: "/analytics/", upstreams: ingests.map((ingest) => `http://127.0.0.1:${ingest.port}`) }],
    });
    started.push({ stop: front.close });
    return { front, apps, ingests, database, s3, env, dataDirs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
