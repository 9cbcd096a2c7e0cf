import AxeBuilder from "@axe-core/playwright";
import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { makeLottie, solidLayer } from "../testing/fixtures/lottie-builders";
import { fixture, lightsUpload, lottieWithManifest, recordAnalytics, setUpShare } from "./embed-helpers";

// The landing page and the player for viewers who use a keyboard, a screen reader or ask for
// less motion: axe (WCAG 2.2 A/AA), reduced motion without autoplay, and a keyboard-only walk.

test.describe.configure({ timeout: 120_000 });

const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const playerOf = (page: Page) => page.frameLocator('[data-testid="player-slot"] iframe');

const rasterUpload = {
  kind: "Raster",
  name: "Raster",
  videoFile: { name: "background.mp4", mimeType: "video/mp4", buffer: fixture("video/background-640x360-6s.mp4") },
  posterFile: { name: "poster.png", mimeType: "image/png", buffer: fixture("video/poster-640x360.png") },
};

async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** What shows the focused element: an outline of at least 2 px, or a box-shadow ring. */
async function focusIndicator(frame: FrameLocator) {
  return frame.locator(":focus").evaluate((element) => {
    const style = getComputedStyle(element);
    return { name: element.getAttribute("aria-label") ?? element.textContent, outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2, ring: style.boxShadow !== "none", outlineColor: style.outlineColor };
  });
}

test.describe("reduced motion", () => {
  test("prefers-reduced-motion: reduce – the landing page's player does not autoplay: paused at 0, poster and play button", async ({ page, request }) => {
    const { share } = await setUpShare(request, "Reduced motion", rasterUpload);
    const analytics = await recordAnalytics(page);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(share.url);
    const player = playerOf(page);
    // session.started is sent after READY, in the same step that would have started autoplay.
    await expect.poll(() => analytics.types()).toContain("session.started");
    await player.locator("body").evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const root = player.locator("#reelbind-player");
    await expect(root).toHaveAttribute("data-state", "ready");
    await expect(player.getByRole("slider")).toHaveValue("0");
    await expect(player.getByRole("button", { name: "Play" })).toBeVisible();
    await expect(player.locator(".rb-big-play")).toBeVisible();
    await expect(player.locator(".rb-poster")).toBeVisible();
    expect(analytics.types()).not.toContain("video.played");
    expect(analytics.types()).not.toContain("autoplay.failed");

    await player.getByRole("button", { name: "Play" }).click();
    await expect(root).toHaveAttribute("data-state", "playing");
  });

  test("without it, the landing page autoplays", async ({ page, request }) => {
    const { share } = await setUpShare(request, "Full motion", rasterUpload);
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto(share.url);
    await expect(playerOf(page).locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
  });
});

test.describe("axe, WCAG 2.2 A and AA", () => {
  test("the landing page with its consent banner (German), and the player inside it: no violations", async ({ page, request }) => {
    const { share } = await setUpShare(request, "Barrierefrei", rasterUpload, { locale: "de-DE", consentMode: "required", ctaLabel: "Termin buchen", ctaUrl: "https://example.com/book" });
    await page.goto(share.url);
    await expect(page.getByRole("dialog", { name: "Einwilligung zur Analyse" })).toBeVisible();
    await expect(playerOf(page).locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
    await expectNoViolations(page);
  });

  test("the Arabic landing page: no violations", async ({ page, request }) => {
    const { share } = await setUpShare(request, "Arabic axe", lightsUpload, { publicTitle: "عرض الصيف", locale: "ar-EG", consentMode: "required" });
    await page.goto(share.url);
    await expect(playerOf(page).locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
    await expectNoViolations(page);
  });

  test("the embed iframe's own page, paused with its controls: no violations", async ({ page, request }) => {
    const { share } = await setUpShare(request, "Embed page", rasterUpload, { ctaLabel: "Book", ctaUrl: "https://example.com/book" });
    await page.goto(`/embed/${share.slug}`);
    await expect(page.locator("#reelbind-player")).toHaveAttribute("data-state", "ready");
    await expectNoViolations(page);
  });

  test("the unavailable page: no violations", async ({ page }) => {
    await page.goto("/v/NoSuchShare0000000000");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoViolations(page);
  });
});

test("keyboard only: Tab reaches every control with a visible focus ring; Space, Enter and k play and pause; arrows seek", async ({ page, request }) => {
  const { share } = await setUpShare(request, "Keyboard", rasterUpload, { ctaLabel: "Book", ctaUrl: "https://example.com/book" });
  await page.goto(share.url);
  const player = playerOf(page);
  const root = player.locator("#reelbind-player");
  await expect(root).toHaveAttribute("data-state", /playing|ended/);
  await player.locator(".rb-frame").click();
  await expect(root).toHaveAttribute("data-state", /paused|ended/);
  await player.getByRole("slider").evaluate((slider: HTMLInputElement) => slider.blur());

  // Tab from the page into the player and through its controls, until focus leaves the player.
  const reached: string[] = [];
  await page.locator("body").focus();
  for (let presses = 0; presses < 12; presses++) {
    await page.keyboard.press("Tab");
    const inPlayer = await player.locator(":focus").count();
    if (!inPlayer) {
      if (reached.length) break;
      continue;
    }
    const indicator = await focusIndicator(player);
    expect(indicator.outline && indicator.ring, `focus ring on ${indicator.name}`).toBe(true);
    reached.push(indicator.name ?? "");
  }
  expect(reached).toEqual(expect.arrayContaining(["Play", "Seek", "Book", "Full screen"]));
  expect(reached.indexOf("Play")).toBeLessThan(reached.indexOf("Seek"));

  // Space and Enter on the focused play button, k anywhere in the player.
  const play = player.getByRole("button", { name: /^(Play|Replay)$/ });
  await play.focus();
  await page.keyboard.press("Space");
  await expect(root).toHaveAttribute("data-state", "playing");
  await page.keyboard.press("Enter");
  await expect(root).toHaveAttribute("data-state", "paused");
  await page.keyboard.press("k");
  await expect(root).toHaveAttribute("data-state", "playing");
  await page.keyboard.press("k");
  await expect(root).toHaveAttribute("data-state", "paused");

  const slider = player.getByRole("slider", { name: "Seek" });
  await slider.focus();
  await page.keyboard.press("Home");
  await expect(slider).toHaveValue("0");
  await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveValue("5000");
  await expect(slider).toHaveAttribute("aria-valuetext", "0:05 of 0:06");
  await page.keyboard.press("ArrowLeft");
  await expect(slider).toHaveValue("0");
});

test("every player control is at least 24×24 CSS px (WCAG 2.5.8)", async ({ page, request }) => {
  const { share } = await setUpShare(request, "Targets", rasterUpload, { ctaLabel: "Book", ctaUrl: "https://example.com/book" });
  await page.goto(`/embed/${share.slug}`);
  await expect(page.locator("#reelbind-player")).toHaveAttribute("data-state", "ready");
  const controls = page.locator(".rb-controls").locator("button:visible, a:visible, input:visible");
  expect(await controls.count()).toBeGreaterThanOrEqual(3);
  for (const control of await controls.all()) {
    const box = (await control.boundingBox())!;
    expect(Math.min(box.width, box.height), (await control.getAttribute("aria-label")) ?? (await control.textContent()) ?? "").toBeGreaterThanOrEqual(24);
  }
});

/** WCAG's relative luminance of an sRGB pixel. */
const luminance = ([r, g, b]: number[]) => {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
};

test("over an all-white video, each control's icon keeps 3:1 against the bar behind it (WCAG 1.4.11), measured in the rendered pixels", async ({ page, request }) => {
  const white = lottieWithManifest("White", makeLottie({ w: 640, h: 360, op: 150, layers: [solidLayer("White", "#ffffff", 640, 360, { op: 150 })] }), { version: 1, fields: [] });
  const { share } = await setUpShare(request, "White frame", white);
  await page.setViewportSize({ width: 640, height: 360 });
  await page.goto(`/embed/${share.slug}`);
  await expect(page.locator("#reelbind-player")).toHaveAttribute("data-state", "ready");
  const buttons = await page.locator(".rb-controls button:visible").all();
  expect(buttons.length).toBeGreaterThanOrEqual(2);
  for (const button of buttons) {
    const name = (await button.getAttribute("aria-label")) ?? "";
    // Read the button's pixels back in the browser: the brightest is the icon, the darkest the bar behind it.
    const png = (await button.screenshot()).toString("base64");
    const pixels = await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0);
      return Array.from(context.getImageData(0, 0, image.width, image.height).data);
    }, png);
    const luminances: number[] = [];
    for (let i = 0; i < pixels.length; i += 4) luminances.push(luminance(pixels.slice(i, i + 3)));
    const icon = Math.max(...luminances);
    const bar = Math.min(...luminances);
    expect((icon + 0.05) / (bar + 0.05), name).toBeGreaterThanOrEqual(3);
    // And the bar itself is dark where the icon sits: its lightest background pixel still gives 3:1 to white.
    const corner = luminance(pixels.slice(0, 3));
    expect((1 + 0.05) / (corner + 0.05), `${name} (corner)`).toBeGreaterThanOrEqual(3);
  }
});
