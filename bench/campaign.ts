// `npm run bench:campaign` (issue 17): the campaign import of a million CSV rows into a fresh
// PostgreSQL database (bench/campaign-import.ts; goal ≥ 50,000 rows/s, RSS growth ≤ 100 MB;
// BENCH_CAMPAIGN_REIMPORT=1: then a changed file of the same rows, every recipient updated),
// then a 10 s 720p Lottie rendered to MP4 against ffmpeg encoding the same frames alone
// (bench/campaign-render.ts; goal ≥ 4× real time). Results go to docs/benchmarks.md.
import { createFreshDatabase } from "@/testing/fresh-database";
import { runImportBench } from "./campaign-import";
import { runRenderBench } from "./campaign-render";

const rows = Number(process.env.BENCH_CAMPAIGN_ROWS ?? 1_000_000);
const database = await createFreshDatabase(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", "campaign");
process.env.TOKEN_SECRETS ??= "bench:0123456789abcdef0123456789abcdef";
process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789abcdef0123";
try {
  const imported = await runImportBench({ databaseUrl: database.url, rows, reimport: process.env.BENCH_CAMPAIGN_REIMPORT === "1" });
  console.log(
    `Import: ${imported.rows.toLocaleString("en-US")} rows in ${imported.seconds} s = ${imported.rowsPerSecond.toLocaleString("en-US")} rows/s ` +
      `= ${(imported.rowsPerSecond / imported.rawCopyRowsPerSecond).toFixed(2)} × a raw COPY of the same rows (${imported.rawCopyRowsPerSecond.toLocaleString("en-US")} rows/s; ` +
      `PostgreSQL generating them itself: ${imported.databaseOnlyRowsPerSecond.toLocaleString("en-US")} rows/s), RSS growth ${imported.rssGrowthMB} MB (heap ${imported.heapGrowthMB} MB)`,
  );
  if (imported.reimport) {
    console.log(
      `Re-import of a changed file: ${imported.reimport.rowsUpdated.toLocaleString("en-US")} recipients updated in ${imported.reimport.seconds} s = ${imported.reimport.rowsPerSecond.toLocaleString("en-US")} rows/s`,
    );
  }
} finally {
  await database.drop();
}
const rendered = await runRenderBench({ runs: Number(process.env.BENCH_RENDER_RUNS ?? 3), log: (line) => console.log(`  ${line}`) });
console.log(
  `Render: ${rendered.frames} frames (10 s, 720p) in ${rendered.seconds.toFixed(2)} s median of ${rendered.runs} = ${rendered.framesPerSecond.toFixed(0)} frames/s, ` +
    `${rendered.realTimeFactor.toFixed(2)}× real time; ffmpeg alone ${rendered.ffmpegOnlyFramesPerSecond.toFixed(0)} frames/s ` +
    `(render ${(rendered.framesPerSecond / rendered.ffmpegOnlyFramesPerSecond).toFixed(2)}× of ffmpeg alone); ` +
    `per frame: draw ${rendered.profile.drawMsPerFrame.toFixed(1)} ms, I420 ${rendered.profile.i420MsPerFrame.toFixed(1)} ms`,
);
process.exit(0);
