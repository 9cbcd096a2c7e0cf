import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Frame, type Page } from "@playwright/test";
import { makeLottie, solidLayer, textLayer } from "../testing/fixtures/lottie-builders";
import { screenshots } from "./console-helpers";
import { hostCommand, lottieWithManifest, secondOrigin, setUpShare, waitForCall } from "./embed-helpers";

// Captions and descriptions of a viewer's own video: a template whose manifest declares both,
// with {{firstName}}. A campaign recipient's player shows their captions (the c key and the CC
// button toggle them), announces each description in a polite live region as playback reaches
// it, and their landing page's transcript lists every cue with a timestamp that seeks the player.

const fps = 30;
const captionsUpload = lottieWithManifest(
  "Captioned",
  makeLottie({ w: 640, h: 360, fr: fps, op: 20 * fps, layers: [textLayer("Name", "Name", { x: 40, size: 48, y: 120, op: 20 * fps }), solidLayer("Card", "#e0e7ff", 640, 360, { op: 20 * fps })] }),
  {
    version: 1,
    fields: [{ key: "firstName", type: "text", target: { layer: "Name" } }],
    cues: [
      { kind: "captions", text: "Hello {{firstName}}, welcome aboard", startFrame: 0, endFrame: 5 * fps },
      { kind: "captions", text: "Your plan is ready", startFrame: 5 * fps, endFrame: 20 * fps },
      { kind: "descriptions", text: "{{firstName}}'s plan card slides in", startFrame: 5 * fps, endFrame: 8 * fps },
    ],
  },
);

/** The landing page's player iframe, as a frame to evaluate in. */
async function playerFrame(page: Page): Promise<Frame> {
  const handle = await page.getByTestId("player-slot").locator("iframe").elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("no player frame");
  return frame;
}

test("a recipient's captions, described scenes and transcript say their name; c toggles captions; a transcript timestamp seeks the player", async ({ page, request }) => {
  const setup = await setUpShare(request, "Captions", captionsUpload, { personalizationData: { firstName: "Ana" } });
  const auth = { Authorization: `Bearer ${setup.token}` };
  const campaigns = `/api/Projects/${setup.projectId}/campaigns`;
  const created = await request.post(campaigns, { headers: auth, data: { name: `Captions ${randomUUID().slice(0, 6)}`, channel: "DEV" } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  const imported = await request.post(`${campaigns}/${campaignId}/recipients`, { headers: auth, data: { recipients: [{ id: "c-1", firstName: "Bruno" }] } });
  expect(imported.status(), await imported.text()).toBe(201);
  const listed = await request.get(`${campaigns}/${campaignId}/recipients`, { headers: auth });
  const [bruno] = ((await listed.json()) as { items: { url: string }[] }).items;

  await page.goto(bruno!.url);

  // The transcript: every cue with the recipient's name, captions and descriptions told apart.
  const transcript = page.getByTestId("transcript");
  await transcript.getByText("Transcript", { exact: true }).click();
  const lines = transcript.locator("li");
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toHaveAttribute("data-kind", "captions");
  await expect(lines.nth(0)).toContainText("Hello Bruno, welcome aboard");
  await expect(transcript.locator('li[data-kind="descriptions"]')).toContainText("Description");
  await expect(transcript.locator('li[data-kind="descriptions"]')).toContainText("Bruno's plan card slides in");
  await expect(transcript.getByRole("button", { name: "Play from 0:05" })).toHaveCount(2);

  const player = page.frameLocator('[data-testid="player-slot"] iframe');
  await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", "playing");
  const captionsButton = player.getByRole("button", { name: "Captions" });
  const line = player.locator(".rb-captions");
  const slider = player.getByRole("slider", { name: "Seek" });

  // Off until the viewer turns them on; c toggles them (from a focused control, as from anywhere in the player).
  await expect(captionsButton).toHaveAttribute("aria-pressed", "false");
  await expect(line).toBeHidden();
  await captionsButton.focus();
  await captionsButton.press("c");
  await expect(captionsButton).toHaveAttribute("aria-pressed", "true");
  await expect(line).toBeVisible();
  await captionsButton.press("c");
  await expect(captionsButton).toHaveAttribute("aria-pressed", "false");
  await expect(line).toBeHidden();
  await captionsButton.click();
  await expect(captionsButton).toHaveAttribute("aria-pressed", "true");

  // The description is announced when playback reaches 0:05, not before: each change of the live
  // region is recorded with the slider's position at that moment.
  const frame = await playerFrame(page);
  await expect(player.locator('.rb-descriptions[aria-live="polite"]')).toHaveCount(1);
  await frame.evaluate(() => {
    const region = document.querySelector(".rb-descriptions")!;
    const seek = document.querySelector<HTMLInputElement>(".rb-seek")!;
    const log: { text: string; positionMs: number }[] = [];
    (window as unknown as { announced: typeof log }).announced = log;
    new MutationObserver(() => log.push({ text: region.textContent ?? "", positionMs: Number(seek.value) })).observe(region, { childList: true, subtree: true, characterData: true });
    // A seek just before the description, as the viewer's slider does it.
    seek.value = "4500";
    seek.dispatchEvent(new Event("input", { bubbles: true }));
    seek.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await frame.waitForFunction(() => (window as unknown as { announced: unknown[] }).announced.length > 0);
  const announced = await frame.evaluate(() => (window as unknown as { announced: { text: string; positionMs: number }[] }).announced);
  expect(announced[0]!.text).toBe("Bruno's plan card slides in");
  expect(announced[0]!.positionMs).toBeGreaterThanOrEqual(5000);
  expect(announced[0]!.positionMs).toBeLessThan(8000);
  await expect(line).toHaveText("Your plan is ready");

  // A transcript timestamp seeks the player (and plays it) from there.
  await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThanOrEqual(5000);
  await transcript.getByRole("button", { name: "Play from 0:00" }).click();
  await expect.poll(async () => Number(await slider.inputValue())).toBeLessThan(5000);
  await expect(line).toHaveText("Hello Bruno, welcome aboard");
  await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", "playing");

  // The open transcript, the captions line and the player: WCAG 2.2 A and AA, no violation of any impact.
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  await screenshots(page, "captions-transcript", { phoneWidth: 390 });

  // The share's own page: the share's data; the viewer's captions choice is remembered.
  await page.goto(setup.share.url);
  await expect(page.getByTestId("transcript").locator("li").first()).toContainText("Hello Ana, welcome aboard");
  const sharePlayer = page.frameLocator('[data-testid="player-slot"] iframe');
  await expect(sharePlayer.getByRole("button", { name: "Captions" })).toHaveAttribute("aria-pressed", "true");
  await expect(sharePlayer.locator(".rb-captions")).toHaveText("Hello Ana, welcome aboard");
});

test("an embed session's captions say its data, and the host's new data at once (SET_DATA binds the cues again)", async ({ page, request }) => {
  const setup = await setUpShare(request, "Captions live", captionsUpload);
  const token = await setup.session(request, { personalizationData: { firstName: "Carla" }, allowedOrigins: [secondOrigin()] });
  await page.goto(`${secondOrigin()}/demo/embed?session=${encodeURIComponent(token)}`);
  await waitForCall(page, (call) => call.name === "onReady");
  const player = page.frameLocator('[data-testid="demo-player"] iframe');
  const captionsButton = player.getByRole("button", { name: "Captions" });
  await captionsButton.click();
  await expect(captionsButton).toHaveAttribute("aria-pressed", "true");
  const line = player.locator(".rb-captions");
  await expect(line).toHaveText("Hello Carla, welcome aboard");
  await hostCommand(page, 'setData({ firstName: "Dara" })');
  await expect(line).toHaveText("Hello Dara, welcome aboard");
});
