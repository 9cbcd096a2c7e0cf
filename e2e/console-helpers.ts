import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// What every console spec does: sign in through the form, check a page with axe, and keep
// screenshots at desktop and phone width in e2e/screenshots/ (git-ignored) to look at.

export const screenshotDir = "e2e/screenshots";

export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects/, { timeout: 60_000 });
}

/**
 * Full-page screenshots named e.g. members-desktop.png and members-phone.png, at 1280 and
 * `phoneWidth` pixels wide; nothing may stick out sideways on the phone.
 */
export async function screenshots(page: Page, name: string, { phoneWidth = 375 }: { phoneWidth?: number } = {}) {
  mkdirSync(screenshotDir, { recursive: true });
  for (const [label, size] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: phoneWidth, height: 844 }]] as const) {
    await page.setViewportSize(size);
    // Measured once the page has laid itself out at the new width (a resize event and a frame later).
    await page.waitForFunction((width) => window.innerWidth === width, size.width);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (label === "phone") expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} on a phone`).toBeLessThanOrEqual(phoneWidth);
    await page.screenshot({ path: `${screenshotDir}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** axe-core finds no serious or critical violation. */
export async function expectAccessible(page: Page) {
  await expect(page).toHaveTitle(/Reelbind/); // the page has rendered, not still navigating
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}
