import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { makeLottie, solidLayer, textLayer } from "../testing/fixtures/lottie-builders";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { setUpShare } from "./embed-helpers";
import { cli } from "./owned-project";

// A campaign recipient's page is personal outside the video too: the share's title
// "Hi {{firstName|there}}" reads each recipient's name in the page's <title>, its Open Graph and
// Twitter tags and its heading, and its Open Graph image is their own poster. A name written as
// markup stays text everywhere.

const scriptName = "<script>alert(1)</script>";

const greetingUpload = {
  kind: "LottieStandalone",
  name: "Greeting",
  templateJson: {
    name: "greeting.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(makeLottie({ w: 640, h: 360, op: 60, layers: [textLayer("Name", "Name", { x: 40, size: 48, y: 180 }), solidLayer("Card", "#e0e7ff", 640, 360)] }))),
  },
  manifestJson: {
    name: "manifest.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ version: 1, fields: [{ key: "firstName", type: "text", target: { layer: "Name" } }] })),
  },
};

const meta = (page: Page, attribute: "property" | "name", key: string) => page.locator(`meta[${attribute}="${key}"]`).getAttribute("content");

test("a campaign's two recipients: each page's <title>, Open Graph and Twitter tags and heading read their name, each Open Graph image is their own poster; a name written as markup is text", async ({ page, request }) => {
  const setup = await setUpShare(request, "Recipient page", greetingUpload, {
    publicTitle: "Hi {{firstName|there}}",
    publicSubtitle: "A video made for {{ firstName | you }}",
    personalizationData: { firstName: "Ana" },
  });
  const auth = { Authorization: `Bearer ${setup.token}` };
  const campaigns = `/api/Projects/${setup.projectId}/campaigns`;
  const created = await request.post(campaigns, { headers: auth, data: { name: `Personal ${randomUUID().slice(0, 6)}`, channel: "DEV" } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  const imported = await request.post(`${campaigns}/${campaignId}/recipients`, {
    headers: auth,
    data: { recipients: [{ id: "r-1", firstName: "Bruno" }, { id: "r-2", firstName: scriptName }] },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const listed = await request.get(`${campaigns}/${campaignId}/recipients`, { headers: auth });
  const [bruno, scripted] = ((await listed.json()) as { items: { externalId: string; url: string }[] }).items;
  expect([bruno!.externalId, scripted!.externalId]).toEqual(["r-1", "r-2"]);

  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  const posters: Buffer[] = [];
  for (const [recipient, name] of [
    [bruno!, "Bruno"],
    [scripted!, scriptName],
  ] as const) {
    const token = recipient.url.split("/").at(-1)!;
    const expectedImage = `${new URL(recipient.url).origin}/api/embed/posters/${setup.share.slug}/${token}`;
    // The poster the page's box loads is the Open Graph image's URL: its bytes, as a crawler gets them.
    const posterLoaded = page.waitForResponse((response) => response.url() === expectedImage);
    expect((await page.goto(recipient.url))?.status()).toBe(200);
    await expect(page).toHaveTitle(`Hi ${name}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hi ${name}`);
    await expect(page.locator("h1 *")).toHaveCount(0);
    await expect(page.getByText(`A video made for ${name}`, { exact: true })).toBeVisible();
    expect(await meta(page, "property", "og:title")).toBe(`Hi ${name}`);
    expect(await meta(page, "property", "og:description")).toBe(`A video made for ${name}`);
    expect(await meta(page, "property", "og:url")).toBe(recipient.url);
    expect(await meta(page, "name", "twitter:title")).toBe(`Hi ${name}`);
    expect(await meta(page, "name", "twitter:description")).toBe(`A video made for ${name}`);
    const image = (await meta(page, "property", "og:image"))!;
    expect(image).toBe(expectedImage);
    expect(await meta(page, "name", "twitter:image")).toBe(image);
    // The box shows the same poster until the player's first frame; the player is named by the same title.
    await expect(page.getByTestId("player-slot").locator("img")).toHaveAttribute("src", image);
    const player = page.frameLocator('[data-testid="player-slot"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("aria-label", `Hi ${name}`);
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);

    const poster = await posterLoaded;
    expect([poster.status(), poster.headers()["content-type"]]).toEqual([200, "image/png"]);
    posters.push(await poster.body());
    if (name === "Bruno") await screenshots(page, "recipient-page", { phoneWidth: 390 });
  }
  expect(posters[0]!.equals(posters[1]!)).toBe(false);
  // The markup stayed text: no script ran, and the heading holds no element.
  expect(dialogs).toEqual([]);

  // The share's own page: its own data in the title, the share's poster as its image.
  const sharePoster = `${new URL(setup.share.url).origin}/api/embed/posters/${setup.share.slug}`;
  const sharePosterLoaded = page.waitForResponse((response) => response.url() === sharePoster);
  await page.goto(setup.share.url);
  await expect(page).toHaveTitle("Hi Ana");
  expect(await meta(page, "property", "og:image")).toBe(sharePoster);
  expect((await (await sharePosterLoaded).body()).equals(posters[0]!)).toBe(false);
});

test("the share editor previews a title with placeholders: filled with the share's data, or with a chosen campaign recipient's", async ({ page, request }) => {
  const setup = await setUpShare(request, "Title preview", greetingUpload, { personalizationData: { firstName: "Ana" } });
  const run = randomUUID().slice(0, 6);
  const manager = { email: `title-preview-${run}@example.com`, password: `pw-${randomUUID()}` };
  await cli("user", "create", "--email", manager.email, "--password", manager.password);
  await cli("member", "add", "--user", manager.email, "--project", setup.projectId, "--role", "ProjectManager");
  const auth = { Authorization: `Bearer ${setup.token}` };
  const created = await request.post(`/api/Projects/${setup.projectId}/campaigns`, { headers: auth, data: { name: `Preview ${run}`, channel: "DEV" } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  const imported = await request.post(`/api/Projects/${setup.projectId}/campaigns/${campaignId}/recipients`, {
    headers: auth,
    data: { recipients: [{ id: "p-1", firstName: "Dora", email: "dora@example.com" }] },
  });
  expect(imported.status(), await imported.text()).toBe(201);

  await signIn(page, manager);
  await page.goto(`/projects/${setup.projectId}/shares/DEV`);
  const preview = page.getByTestId("title-preview");
  await expect(page.getByRole("heading", { level: 2, name: "Landing page" })).toBeVisible();
  // No placeholder, no preview.
  await expect(preview).toHaveCount(0);
  await page.getByLabel("Title", { exact: true }).fill("Hi {{firstName|there}}");
  await expect(preview).toHaveAttribute("aria-live", "polite");
  await expect(preview.locator("p").first()).toHaveText("Preview: Hi Ana");
  await page.getByLabel("Preview with").selectOption({ label: `Preview ${run}: dora@example.com` });
  await expect(preview.locator("p").first()).toHaveText("Preview: Hi Dora");
  await page.getByLabel("Title", { exact: true }).fill("Hi {{ nickname | there }}");
  await expect(preview.locator("p").first()).toHaveText("Preview: Hi there");
  await screenshots(page, "share-title-preview", { phoneWidth: 390 });
  await expectAccessible(page);
});
