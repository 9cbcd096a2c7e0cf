import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

// The console's upload form driven as a person would: files picked and dropped, uploads slowed
// down so the progress bar can be watched.

export const fixtureDir = "testing/fixtures/lottie/weather-card";
export const weatherFile = (name: string, mimeType: string) => ({ name: path.basename(name), mimeType, buffer: readFileSync(`${fixtureDir}/${name}`) });
/** The weather card's binding manifest, plus chapters and a CTA for the detail page to list. */
export const manifest = {
  ...(JSON.parse(readFileSync(`${fixtureDir}/manifest.json`, "utf8")) as Record<string, unknown>),
  chapters: [
    { id: "intro", name: "Intro", startFrame: 0, endFrame: 120 },
    { id: "forecast", name: "Forecast", startFrame: 120, endFrame: 360 },
  ],
  ctas: [{ id: "details", name: "See the details", layer: "Status" }],
};
export const manifestFile = (content: unknown = manifest) => ({ name: "manifest.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(content)) });

/** Uploads slower than the machine can, so progress and Cancel can be seen (Chromium's network emulation). */
export async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return cdp;
}

/** Records every aria-valuenow the upload progress bar shows (client-side navigation keeps the window). */
export async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      const value = Number(bar?.getAttribute("aria-valuenow"));
      if (bar && seen[seen.length - 1] !== value) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
}

/** A file dropped onto a drop area, as a drag from the desktop delivers it. */
export async function dropFile(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, mimeType, base64 }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: mimeType }));
      return transfer;
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") },
  );
  await page.getByLabel(label, { exact: true }).dispatchEvent("drop", { dataTransfer });
}

export async function fillUploadForm(page: Page, name: string, version = "1.0") {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Version").fill(version);
  await page.getByLabel("Lottie JSON", { exact: true }).setInputFiles(weatherFile("data.json", "application/json"));
  await page.getByLabel("Binding manifest", { exact: true }).setInputFiles(manifestFile());
  // One asset by drag and drop, one through the picker.
  await dropFile(page, "Asset files", weatherFile("images/img_0.jpg", "image/jpeg"));
  await page.getByLabel("Asset files", { exact: true }).setInputFiles(weatherFile("images/img_1.jpg", "image/jpeg"));
  await expect(page.getByRole("list", { name: "Asset files: chosen" }).getByRole("listitem")).toHaveCount(2);
}
