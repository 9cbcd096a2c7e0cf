import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { cliEnv } from "./owned-project";

// Helpers of the security-limits specs: the CLI against any app instance, and users with a role.

/** Runs `reelbind …` with `env` (DATA_DIR, DATABASE_URL of the instance it talks to) and parses its JSON. */
export async function cli<T>(env: NodeJS.ProcessEnv, ...args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ["bin/reelbind.mjs", ...args], { env, timeout: 60_000 });
  return JSON.parse(stdout) as T;
}

/** A new user of the main test server with `role` on one project, and a bearer token of theirs. */
export async function createProjectMember(projectId: string, role: "Viewer" | "Editor", label: string) {
  const email = `${label.toLowerCase().replace(/\W+/g, "-")}-${randomUUID()}@example.com`;
  await cli(cliEnv(), "user", "create", "--email", email);
  await cli(cliEnv(), "member", "add", "--user", email, "--project", projectId, "--role", role);
  const { token } = await cli<{ token: string }>(cliEnv(), "token", "create", "--user", email);
  return { email, token };
}
