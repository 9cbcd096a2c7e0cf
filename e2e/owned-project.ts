import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { expect, type APIRequestContext } from "@playwright/test";
import { readAdminChannel, sendToAdminChannel } from "../lib/cli/admin-channel";
import { parseCommandLine } from "../lib/cli/command-line";

// Tests that own their data: a fresh organization and project, and a ProjectManager with their
// own token, made with the CLI's commands sent to the server's admin channel (one request each,
// on either database) rather than a CLI process per command (2–6 s each to load TypeScript).

export const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup did not run`);
  return value;
};

/** The CLI's environment: the server's DATA_DIR, and its PostgreSQL database when it has one. */
export const cliEnv = () => ({ ...process.env, DATA_DIR: env("E2E_DATA_DIR"), DATABASE_URL: process.env.E2E_DATABASE_URL ?? "" });

export type OwnedProject = { projectId: string; token: string };

/**
 * Runs `reelbind …` through the admin channel of the server whose DATA_DIR is `dataDir`, as the
 * CLI does on PGlite, and returns its JSON answer; a refused command rejects with the problem.
 */
export async function cliVia<T>(dataDir: string, ...args: string[]): Promise<T> {
  const channel = readAdminChannel(dataDir);
  if (!channel) throw new Error(`No server published an admin channel in ${dataDir}`);
  const response = await sendToAdminChannel(channel, parseCommandLine(args), 120_000);
  const body = await response.text();
  if (!response.ok) throw new Error(`reelbind ${args.join(" ")}: ${response.status} ${body}`);
  return JSON.parse(body) as T;
}

/** Runs `reelbind …` on the suite's server (through its admin channel) and returns its JSON answer. */
export const cli = <T>(...args: string[]): Promise<T> => cliVia<T>(env("E2E_DATA_DIR"), ...args);

/** Spawns the real CLI (`bin/reelbind.mjs`), for tests whose subject is the CLI itself; its JSON output. */
export async function runCli<T>(...args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ["bin/reelbind.mjs", ...args], { env: cliEnv(), timeout: 180_000 });
  return JSON.parse(stdout) as T;
}

export async function createOwnedProject(label: string): Promise<OwnedProject> {
  const run = randomUUID();
  const email = `${label.toLowerCase().replace(/\W+/g, "-")}-${run}@example.com`;
  const [org] = await Promise.all([cli<{ id: string }>("org", "create", "--name", `${label} ${run}`), cli("user", "create", "--email", email)]);
  const project = await cli<{ id: string }>("project", "create", "--org", org.id, "--name", `${label} e2e`);
  await cli("member", "add", "--user", email, "--project", project.id, "--role", "ProjectManager");
  const { token } = await cli<{ token: string }>("token", "create", "--user", email);
  return { projectId: project.id, token };
}

/**
 * The demo PROD share's landing page as it is now: the start banner printed E2E_SHARE_URL, but
 * another spec (landing-page.spec.ts) rotates that share's slug.
 */
export async function demoShareUrl(request: APIRequestContext): Promise<string> {
  const response = await request.get(`/api/Projects/${env("E2E_PROJECT_ID")}/public-video-shares`, {
    headers: { Authorization: `Bearer ${env("E2E_API_TOKEN")}` },
  });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: { channel: string; url: string; status: string }[] };
  const share = items.find((item) => item.channel === "PROD" && item.status === "Enabled");
  expect(share, "the demo project has an enabled PROD share").toBeDefined();
  return share!.url;
}
