import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { lightsUpload, setUpShare } from "./embed-helpers";

// The player's and the landing page's own words in the share's language, and right-to-left
// layout for Arabic (shared/i18n). The share's title is the customer's and stays as written.

test.describe.configure({ timeout: 120_000 });

const screenshotDir = "e2e/screenshots";
const playerOf = (page: Page) => page.frameLocator('[data-testid="player-slot"] iframe');

test("a de-DE share: German consent banner on the landing page and German control labels in the player", async ({ page, request }) => {
  const { share } = await setUpShare(request, "Sommerangebot", lightsUpload, { locale: "de-DE", consentMode: "required" });
  await page.goto(share.url);
  await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  const banner = page.getByRole("dialog", { name: "Einwilligung zur Analyse" });
  await expect(banner).toContainText("Dürfen wir messen, wie dieses Video angesehen wird");
  await expect(banner.getByRole("button", { name: "Ablehnen" })).toBeVisible();
  await expect(banner.getByRole("button", { name: "Zustimmen" })).toBeVisible();

  const player = playerOf(page);
  const root = player.locator("#reelbind-player");
  await expect(root).toHaveAttribute("data-state", /playing|ended/);
  await expect(root).toHaveAttribute("lang", "de");
  await expect(root).toHaveAttribute("dir", "ltr");
  await expect(player.locator("html")).toHaveAttribute("lang", "de-DE");
  await expect(player.getByRole("button", { name: /^(Pausieren|Erneut abspielen)$/ })).toBeVisible();
  await expect(player.getByRole("button", { name: "Vollbild" })).toBeAttached();
  const slider = player.getByRole("slider", { name: "Wiedergabeposition" });
  await expect(slider).toHaveAttribute("aria-valuetext", /^\d+:\d\d von 0:05$/);

  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}/landing-de.png` });
  await banner.getByRole("button", { name: "Zustimmen" }).click();
  await expect(banner).toBeHidden();
});

test("an ar-EG share: <html dir=rtl> on the landing page and in the player, the control bar mirrored, time still left to right", async ({ page, request }) => {
  const { share } = await setUpShare(request, "Arabic summer", lightsUpload, { publicTitle: "عرض الصيف", locale: "ar-EG", consentMode: "required" });
  expect(share).toMatchObject({ slug: expect.any(String) });
  await page.goto(share.url);
  await expect(page.locator("html")).toHaveAttribute("lang", "ar-EG");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("dialog", { name: "الموافقة على التحليلات" }).getByRole("button", { name: "موافقة" })).toBeVisible();

  const player = playerOf(page);
  const root = player.locator("#reelbind-player");
  await expect(root).toHaveAttribute("data-state", /playing|ended/);
  await expect(root).toHaveAttribute("dir", "rtl");
  await expect(root).toHaveAttribute("lang", "ar");
  await expect(player.locator("html")).toHaveAttribute("dir", "rtl");
  // Paused controls stay on screen: the play button is at the right end, the slider to its left.
  await player.locator(".rb-frame").click();
  await expect(root).toHaveAttribute("data-state", /paused|ended/);
  const play = await player.getByRole("button", { name: /^(تشغيل|إعادة التشغيل)$/ }).boundingBox();
  const seek = player.getByRole("slider", { name: "موضع التشغيل" });
  const slider = await seek.boundingBox();
  expect(play!.x).toBeGreaterThan(slider!.x + slider!.width);
  await expect(seek).toHaveCSS("direction", "ltr");
  await expect(seek).toHaveAttribute("aria-valuetext", /^\d+:\d\d من 0:05$/);

  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}/landing-ar.png` });
});

test("fallback: de-AT reads the German catalogue, an unknown language (xx-XX) English", async ({ page, request }) => {
  const austrian = await setUpShare(request, "Angebot AT", lightsUpload, { locale: "de-AT" });
  expect(austrian.share).toBeDefined();
  await page.goto(austrian.share.url);
  await expect(page.locator("html")).toHaveAttribute("lang", "de-AT");
  await expect(playerOf(page).locator("#reelbind-player")).toHaveAttribute("lang", "de");
  await expect(playerOf(page).getByRole("slider", { name: "Wiedergabeposition" })).toBeAttached();

  const unknown = await setUpShare(request, "Offer xx", lightsUpload, { locale: "xx-XX" });
  await page.goto(unknown.share.url);
  await expect(page.locator("html")).toHaveAttribute("lang", "xx-XX");
  await expect(playerOf(page).locator("#reelbind-player")).toHaveAttribute("lang", "en");
  await expect(playerOf(page).getByRole("slider", { name: "Seek" })).toBeAttached();
});

test("an unavailable share speaks the viewer's Accept-Language (no share to take a locale from)", async ({ browser, request }) => {
  const { share, projectId, token } = await setUpShare(request, "Abgeschaltet", lightsUpload, { locale: "de-DE" });
  const disabled = await request.post(`/api/Projects/${projectId}/public-video-shares/DEV/disable`, { headers: { Authorization: `Bearer ${token}` } });
  expect(disabled.status()).toBe(200);
  const german = await browser.newContext({ locale: "de-DE" });
  const page = await german.newPage();
  try {
    const response = await page.goto(share.url);
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dieses Video ist nicht verfügbar");
    await expect(page.getByText("Der Link ist möglicherweise abgelaufen")).toBeVisible();
    await expect(page).toHaveTitle(/Video nicht verfügbar/);

    // The player iframe's own notice, in the same language; an Arabic reader's right to left.
    const frame = await page.goto(share.url.replace("/v/", "/embed/"));
    expect(frame?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("body")).toHaveText("Dieses Video ist nicht verfügbar.");
    const arabic = await request.get(share.url.replace("/v/", "/embed/"), { headers: { "Accept-Language": "ar-EG,ar;q=0.9" } });
    expect(arabic.status()).toBe(404);
    const html = await arabic.text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain("هذا الفيديو غير متاح.");
  } finally {
    await german.close();
  }
});

test("PUT a share: locale must be a BCP 47 language-REGION tag (422 problem+json naming it); a good one is stored canonical", async ({ request }) => {
  const { projectId, token, credentialId } = await setUpShare(request, "Locale rules", lightsUpload);
  const put = (locale: string) =>
    request.put(`/api/Projects/${projectId}/public-video-shares/DEV`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { publicTitle: "Locale rules", apiCredentialId: credentialId, locale },
    });
  const refused = await put("en_US");
  expect(refused.status()).toBe(422);
  expect(refused.headers()["content-type"]).toBe("application/problem+json");
  const problem = (await refused.json()) as { errors: { path: string; message: string }[] };
  expect(problem.errors).toContainEqual(expect.objectContaining({ path: "locale", message: "must be language-REGION, a BCP 47 tag such as en-US, de-DE, pt-BR or ar-EG" }));
  const stored = await put("PT-br");
  expect(stored.status()).toBe(200);
  expect(((await stored.json()) as { locale: string }).locale).toBe("pt-BR");
});
