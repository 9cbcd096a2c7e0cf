import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { expect, type APIRequestContext } from "@playwright/test";

// Tests that own their data: a fresh organization and project, and a ProjectManager with their
// own token, made through the CLI: on PGlite the running server takes its commands, on
// PostgreSQL it connects to the server's database itself.

export const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup did not run`);
  return value;
};

/** The CLI's environment: the server's DATA_DIR, and its PostgreSQL database when it has one. */
export const cliEnv = () => ({ ...process.env, DATA_DIR: env("E2E_DATA_DIR"), DATABASE_URL: process.env.E2E_DATABASE_URL ?? "" });

export type OwnedProject = { projectId: string; token: string };

/** Runs `reelbind …` against the server's database and returns its JSON output. */
export async function cli<T>(...args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ["bin/reelbind.mjs", ...args], {
    env: cliEnv(),
    timeout: 60_000,
  });
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
