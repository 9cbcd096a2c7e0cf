import { randomBytes } from "node:crypto";
import postgres from "postgres";

// An empty database of a test's or benchmark's own on a PostgreSQL server it shares, dropped
// (with its open connections) at the end.

export type FreshDatabase = { url: string; name: string; drop: () => Promise<void> };

/**
 * Creates `reelbind_<label>_<random>` on the server of `serverUrl` (any database of it): empty, or
 * a copy of `template` (a database nobody is connected to).
 */
export async function createFreshDatabase(serverUrl: string, label: string, { template }: { template?: string } = {}): Promise<FreshDatabase> {
  const name = `reelbind_${label}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
