// npm run bench:sign-in – how long the built app takes to refuse a sign-in for an unknown email
// and for a known email with a wrong password (interleaved, the median of each). Equal times
// mean the answer's time does not tell whether an account exists. A timing is a measurement,
// not a test: it is reported here, never asserted in the test suite.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { signInLimits } from "@/lib/auth/sign-in-throttle";
import { benchSecrets, startQuickStartApp } from "./processes";

const rounds = Number(process.env.BENCH_SIGN_IN_ROUNDS ?? 60);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "reelbind-bench-sign-in-"));
  // It trusts loopback (TRUSTED_PROXIES), so each attempt's X-Forwarded-For is its address.
  const app = await startQuickStartApp(dataDir, { TRUSTED_PROXIES: "loopback" });
  try {
    // A known account takes at most its hourly ceiling of failures (a success does not give them
    // back): a fresh one for every ceiling's worth of rounds.
    const password = `pw-${randomUUID()}`;
    const roundsPerAccount = signInLimits.accountCeiling.points - 10;
    const emails: string[] = [];
    for (let i = 0; i < Math.ceil(rounds / roundsPerAccount); i++) {
      const email = `bench-${randomUUID()}@example.com`;
      await promisify(execFile)(process.execPath, ["bin/reelbind.mjs", "user", "create", "--email", email, "--password", password], {
        env: { ...process.env, ...benchSecrets, DATA_DIR: dataDir, DATABASE_URL: "" },
        timeout: 60_000,
      });
      emails.push(email);
    }

    // Each attempt from an address of its own, so that the per-address limit never answers first.
    const attempt = async (input: { email: string; password: string }) => {
      const address = `bench-${randomUUID()}`;
      const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const started = performance.now();
      const response = await fetch(`${app.baseUrl}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "X-Forwarded-For": address, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...input, csrfToken, callbackUrl: "/projects", json: "true" }),
      });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - started };
    };

    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) await attempt({ email: `warm-${randomUUID()}@example.com`, password: "x" });
    for (let i = 0; i < rounds; i++) {
      const email = emails[Math.floor(i / roundsPerAccount)]!;
      const a = await attempt({ email: `nobody-${randomUUID()}@example.com`, password: "wrong-password" });
      const b = await attempt({ email, password: "wrong-password" });
      if (a.status !== 401 || b.status !== 401) throw new Error(`expected 401s, got ${a.status} and ${b.status}`);
      unknown.push(a.ms);
      wrong.push(b.ms);
      // A successful sign-in resets the account's count before its limit would answer 429.
      if ((i + 1) % (signInLimits.account.points - 1) === 0) await attempt({ email, password });
    }
    const report = {
      rounds,
      cpus: os.cpus().length,
      unknownEmailMedianMs: Number(median(unknown).toFixed(1)),
      wrongPasswordMedianMs: Number(median(wrong).toFixed(1)),
      ratio: Number((median(unknown) / median(wrong)).toFixed(2)),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    app.stop();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
