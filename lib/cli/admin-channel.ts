import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * While the server owns the embedded database, the CLI reaches it through a loopback-only
 * admin endpoint. The server writes its port and a fresh secret into DATA_DIR (mode 0600):
 * whoever can read DATA_DIR could open the database anyway. On PostgreSQL the server publishes
 * it too (the test fixtures seed through it); the CLI connects directly there, and whoever can
 * read the file is the server's user, who can read the server's DATABASE_URL as well.
 */
export type AdminChannel = { pid: number; port: number; secret: string };

export const adminSecretHeader = "x-reelbind-cli-secret";

function channelFile(dataDir: string): string {
  return path.join(dataDir, "admin-channel.json");
}

export function publishAdminChannel(dataDir: string, port: number): AdminChannel {
  const channel = { pid: process.pid, port, secret: randomBytes(32).toString("base64url") };
  // On PostgreSQL with configured secrets nothing else may have created DATA_DIR yet.
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(channelFile(dataDir), JSON.stringify(channel), { mode: 0o600 });
  process.once("exit", () => {
    if (readAdminChannel(dataDir)?.pid === process.pid) rmSync(channelFile(dataDir), { force: true });
  });
  return channel;
}

export function readAdminChannel(dataDir: string): AdminChannel | null {
  try {
    return JSON.parse(readFileSync(channelFile(dataDir), "utf8")) as AdminChannel;
  } catch {
    return null;
  }
}

/** Posts a parsed CLI command to a running server's admin channel; the caller reads the answer. */
export function sendToAdminChannel(channel: AdminChannel, command: unknown, timeoutMs: number): Promise<Response> {
  return fetch(`http://127.0.0.1:${channel.port}/api/internal/cli`, {
    method: "POST",
    headers: { "Content-Type": "application/json", [adminSecretHeader]: channel.secret },
    body: JSON.stringify(command),
    signal: AbortSignal.timeout(timeoutMs),
  });
}
