import { expect, test } from "@playwright/test";
import { fixture, recordAnalytics, secondOrigin, setUpShare, waitForCall } from "./embed-helpers";

// Its own file: a browser launched with an autoplay policy that requires a user gesture (a
// launch option, so it cannot share the other specs' browser).
test.use({
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=document-user-activation-required"],
  },
});
test.describe.configure({ timeout: 120_000 });

test.describe("autoplay with sound where the browser requires a user gesture", () => {
  test("a Raster template: WARN AUTOPLAY_BLOCKED to onWarn and autoplay.failed to the ingest; a click then plays it", async ({ page, request }) => {
    const raster = await setUpShare(request, "Player raster", {
      kind: "Raster",
      name: "Raster",
      videoFile: { name: "background.mp4", mimeType: "video/mp4", buffer: fixture("video/background-640x360-6s.mp4") },
      posterFile: { name: "poster.png", mimeType: "image/png", buffer: fixture("video/poster-640x360.png") },
    });
    const analytics = await recordAnalytics(page);
    await page.goto(`${secondOrigin()}/demo/embed?share=${raster.share.slug}&autoplay=1`);
    await waitForCall(page, (call) => call.name === "onWarn" && call.message.code === "AUTOPLAY_BLOCKED");
    await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["session.started", "autoplay.failed"]));
    expect(analytics.types()).not.toContain("video.played");

    const player = page.frameLocator('[data-testid="demo-player"] iframe');
    await player.getByRole("button", { name: /play/i }).first().click();
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", "playing");
    await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["video.played", "interaction.engaged"]));
  });
});
