// npm run readme:screenshots – the two pictures the README opens with, taken from the product
// as the quick start runs it (a fresh DATA_DIR, the bootstrapped demo) in Debian's Chromium:
// docs/images/console.png (the demo template's page with its live preview) and
// docs/images/landing.png (the demo PROD share's landing page, a few seconds in).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startApp } from "@/testing/start-app";

const outDir = "docs/images";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "reelbind-screenshots-"));
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
delete env.DATABASE_URL;
const app = await startApp(env, 600_000);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
try {
  const desktop = await browser.newPage({ baseURL: app.baseUrl, viewport: { width: 1280, height: 860 } });
  await desktop.goto("/login");
  await desktop.getByLabel("Email").fill(app.adminEmail);
  await desktop.getByLabel("Password").fill(app.adminPassword);
  await desktop.getByRole("button", { name: "Sign in" }).click();
  await desktop.waitForURL(/\/projects$/);
  await desktop.goto(`/projects/${app.projectId}/templates?status=Production`);
  await desktop.getByRole("table").getByRole("link").first().click();
  await desktop.getByText("Playing this template").waitFor({ timeout: 30_000 });
  await desktop.waitForTimeout(3_000);
  await desktop.screenshot({ path: `${outDir}/console.png` });

  const landing = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  await landing.goto(app.shareUrl);
  await landing.frameLocator('[data-testid="player-slot"] iframe').getByRole("button", { name: "Play" }).first().click();
  // Away from the player, so that its controls hide while it plays.
  await landing.mouse.move(0, 0);
  await landing.evaluate(() => window.scrollTo(0, 0));
  await landing.waitForTimeout(4_000);
  await landing.screenshot({ path: `${outDir}/landing.png` });
  console.log(`Wrote ${outDir}/console.png and ${outDir}/landing.png`);
} finally {
  await browser.close();
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
