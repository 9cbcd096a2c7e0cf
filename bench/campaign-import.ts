// The campaign import benchmark: a CSV of a million recipients (a file on disk, in a temporary
// directory) imported through the real import path — spooled and hashed as an upload is,
// parsed by csv-parse, checked against the demo template's fields and written in batches —
// into a PostgreSQL database. Reports rows per second and the growth of this process's
// resident memory. Goal (issue 17): ≥ 50,000 rows/s, RSS growth ≤ 100 MB.
//
// `npx tsx bench/campaign-import.ts` creates a fresh database on BENCH_DATABASE_URL's server
// (default postgres://postgres@127.0.0.1:5432/postgres), runs once, prints the result and drops
// the database; `runImportBench({ databaseUrl })` runs against a database the caller gives.
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type ImportBenchOptions = {
  /** A PostgreSQL database (empty or not: the bench makes a tenant of its own). */
  databaseUrl: string;
  rows?: number;
};

export type ImportBenchResult = { rows: number; rowsImported: number; seconds: number; rowsPerSecond: number; rssGrowthMB: number; fileMB: number };

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

/** id;firstName;planName;email — the demo template's fields, quoted where a value has the delimiter. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const plans = ["Northwind Plus", "Northwind Basic", "Team; annual", "Northwind Pro"];
  out.write("\ufeffid;firstName;planName;email\n");
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    const plan = plans[i % plans.length]!;
    chunk += `cust-${i};Name ${i % 100_000};${plan.includes(";") ? `"${plan}"` : plan};user${i}@example.com\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

export async function runImportBench({ databaseUrl, rows = 1_000_000 }: ImportBenchOptions): Promise<ImportBenchResult> {
  process.env.DATABASE_URL = databaseUrl;
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-bench-campaign-"));
  process.env.DATA_DIR ??= dataDir;
  const { getDb, closeDb } = await import("@/lib/db");
  const { bootstrapDemo } = await import("@/lib/bootstrap/bootstrap");
  const { authorizeProject } = await import("@/lib/auth/project-access");
  const { createCampaign, getCampaignRowOrThrow } = await import("@/lib/campaigns/campaigns");
  const { spoolUpload } = await import("@/lib/campaigns/csv-source");
  const { importRecipients } = await import("@/lib/campaigns/import-recipients");
  const { csvSource } = await import("@/lib/campaigns/upload-recipients");
  const { users } = await import("@/lib/db/schema");
  const { eq } = await import("drizzle-orm");
  try {
    const db = await getDb();
    const demo = await bootstrapDemo(db, { adminEmail: `bench-${Date.now()}@demo.reelbind.local` });
    const [admin] = await db.select().from(users).where(eq(users.email, demo.admin.email));
    const actor = { userId: admin!.id, email: admin!.email, via: "token" as const };
    const access = await authorizeProject(db, actor, demo.project.id, "campaign.write");
    const campaign = await createCampaign(db, actor, access, { name: "Benchmark", channel: "PROD" });
    const row = await getCampaignRowOrThrow(db, access, campaign.id);

    const file = path.join(dataDir, "recipients.csv");
    await writeCsv(file, rows);
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
    const started = performance.now();
    const spooled = await spoolUpload(createReadStream(file), null);
    const outcome = await importRecipients(db, actor, access, row, csvSource(spooled));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    await spooled.dispose();
    return {
      rows: outcome.import.rowsDone,
      rowsImported: outcome.import.rowsImported,
      seconds: Math.round(seconds * 100) / 100,
      rowsPerSecond: Math.round(outcome.import.rowsDone / seconds),
      rssGrowthMB: mb(peak - rssBefore),
      fileMB: mb(spooled.bytes),
    };
  } finally {
    await closeDb();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const { createFreshDatabase } = await import("@/lib/testing/fresh-database");
  const database = await createFreshDatabase(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", "campaign");
  process.env.TOKEN_SECRETS ??= "bench:0123456789abcdef0123456789abcdef";
  process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789abcdef0123";
  try {
    const result = await runImportBench({ databaseUrl: database.url, rows: Number(process.env.BENCH_CAMPAIGN_ROWS ?? 1_000_000) });
    console.log(JSON.stringify(result, null, 2));
    const met = result.rowsPerSecond >= 50_000 && result.rssGrowthMB <= 100;
    console.log(
      `Campaign import: ${result.rows.toLocaleString("en-US")} rows in ${result.seconds} s = ${result.rowsPerSecond.toLocaleString("en-US")} rows/s, RSS growth ${result.rssGrowthMB} MB (goal ≥ 50,000 rows/s, ≤ 100 MB: ${met ? "met" : "missed"}).`,
    );
  } finally {
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
