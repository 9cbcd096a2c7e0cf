import { mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible, screenshotDir, signIn } from "./console-helpers";
import { env } from "./owned-project";
import { cli } from "./sign-in-helpers";

// Issue 32's rough edges in the console, against the built app: secrets shown once close only by
// "I have copied it", audit entries name their subject and show updates old → new, and the phone
// layout (390 px) keeps tabs, campaign links, dates and the QR code usable.

type Created = { id: string };

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };
const sameOrigin = () => ({ Origin: env("E2E_BASE_URL") });

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
const admin = { email: `edges-admin-${run}@example.com`, password: `pw-${randomUUID()}` };
let orgId: string;
let projectId: string;

test.beforeAll(async () => {
  const [org, user] = await Promise.all([cli<Created>("org", "create", "--name", `Edges ${run}`), cli<Created>("user", "create", "--email", admin.email, "--password", admin.password)]);
  orgId = org.id;
  await cli("member", "add", "--user", user.id, "--org", orgId, "--role", "OrganizationAdmin");
  projectId = (await cli<Created>("project", "create", "--org", orgId, "--name", "Edges")).id;
});

/** Screenshots at 1280 and 390 px wide (e2e/screenshots/<name>-desktop.png, -phone390.png); nothing sticks out sideways on the phone. */
async function shots(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  for (const [label, size] of [["desktop", desktop], ["phone390", phone]] as const) {
    await page.setViewportSize(size);
    await page.waitForFunction((width) => window.innerWidth === width, size.width);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (label === "phone390") expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} on a phone`).toBeLessThanOrEqual(phone.width);
    await page.screenshot({ path: `${screenshotDir}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(desktop);
}

/** Escape and a click on the backdrop leave a secret's dialog open, saying why; "I have copied it" closes it. */
async function expectClosesOnlyByCopiedIt(page: Page, dialog: Locator, secret: Locator) {
  await expect(secret).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog.getByRole("alert")).toContainText("not shown again");
  await page.keyboard.press("Escape"); // a second Escape is the browser's "close anyway" for prevented cancels
  await expect(dialog).toBeVisible();
  await expect(secret).toBeVisible();
  const box = (await dialog.boundingBox())!;
  await page.mouse.click(Math.max(2, box.x / 2), Math.max(2, box.y / 2)); // on the backdrop, outside the dialog
  await expect(dialog).toBeVisible();
  await expect(secret).toBeVisible();
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(dialog).toBeHidden();
  await expect(secret).toHaveCount(0);
}

test("secrets shown once (API secret, personal token, accept link) – Escape and a click outside keep the dialog open; only “I have copied it” closes it", async ({ page }) => {
  await signIn(page, admin);

  await page.goto(`/projects/${projectId}/credentials`);
  await page.getByRole("button", { name: "New credential" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Shop backend");
  await dialog.getByRole("button", { name: "Create credential" }).click();
  await expect(dialog.getByTestId("api-secret")).toHaveText(/^sk_/);
  await page.keyboard.press("Escape");
  await shots(page, "secret-dialog-credential");
  await expectClosesOnlyByCopiedIt(page, dialog, dialog.getByTestId("api-secret"));

  // Before a secret exists the dialog is an ordinary one: Escape cancels it.
  await page.getByRole("button", { name: "New credential" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.goto("/account/tokens");
  await page.getByRole("button", { name: "New token" }).click();
  await dialog.getByLabel("Name").fill("Edges CI");
  await dialog.getByRole("button", { name: "Create token" }).click();
  await expect(dialog.getByTestId("new-token")).toBeVisible();
  await shots(page, "secret-dialog-token");
  await expectClosesOnlyByCopiedIt(page, dialog, dialog.getByTestId("new-token"));

  await page.goto(`/organizations/${orgId}/members`);
  await page.getByRole("button", { name: "Invite member" }).click();
  await dialog.getByLabel("Email").fill(`invitee-${run}@example.com`);
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog.getByTestId("accept-url")).toBeVisible();
  await shots(page, "secret-dialog-invitation");
  await expectClosesOnlyByCopiedIt(page, dialog, dialog.getByTestId("accept-url"));
});

test("audit log – each entry names its subject in words, and a share update lists each change old → new", async ({ page }) => {
  await signIn(page, admin);
  const post = async (path: string, data: unknown, method: "post" | "put" = "post") => {
    const response = await page.request[method](path, { data, headers: sameOrigin() });
    expect(response.ok(), await response.text()).toBe(true);
    return (await response.json()) as { id: string; apiKey: string; slug: string };
  };
  const site = await post("/api/credentials", { projectId, name: "Site" });
  const shop = await post("/api/credentials", { projectId, name: "Shop" });
  const shareUrl = `/api/Projects/${projectId}/public-video-shares/PROD`;
  const share = await post(shareUrl, { publicTitle: "Hello", apiCredentialId: site.id, personalizationData: { firstName: "Ana" } }, "put");
  await post(shareUrl, { publicTitle: "Welcome", apiCredentialId: shop.id, personalizationData: { firstName: "Max" } }, "put");
  await post(`/api/credentials/${site.id}/revoke`, {});

  await page.goto(`/projects/${projectId}/audit`);
  const log = page.getByRole("list", { name: "Audit events" });
  const entry = (action: string) => log.getByRole("listitem").filter({ has: page.getByText(action, { exact: true }) });
  await expect(entry("API credential revoked").getByTestId("audit-subject")).toHaveText(`API credential “Site” ${site.apiKey}`);
  await expect(entry("Share created").getByTestId("audit-subject")).toHaveText(`PROD share /v/${share.slug}`);
  const updated = entry("Share updated");
  await expect(updated.getByRole("list", { name: "Changes" }).getByRole("listitem")).toHaveText([
    "Title: “Hello” → “Welcome”",
    "Data “firstName”: “Ana” → “Max”",
    "API credential: “Site” → “Shop”",
  ]);
  await expect(updated).toContainText(`by ${admin.email}`);
  // No internal names: action ids and target types are words.
  for (const internal of ["api_credential", "public_video_share", "credential.revoked", "share.updated"]) await expect(log).not.toContainText(internal);
  await expectAccessible(page);
  await shots(page, "audit-log");
});

test("members – a role change waits for confirmation: Cancel keeps the role, “Change role” applies it (390 px)", async ({ page }) => {
  const memberEmail = `member-${run}@example.com`;
  await cli("user", "create", "--email", memberEmail);
  await cli("member", "add", "--user", memberEmail, "--org", orgId, "--role", "Viewer");
  const roleOnServer = async () => {
    const { items } = (await (await page.request.get(`/api/organizations/${orgId}/members`)).json()) as { items: { email: string; role: string }[] };
    return items.find((item) => item.email === memberEmail)?.role;
  };
  await page.setViewportSize(phone);
  await signIn(page, admin);
  await page.goto(`/organizations/${orgId}/members`);
  const select = page.getByLabel(`Role of ${memberEmail}`);
  await select.selectOption("Editor");
  const dialog = page.getByRole("dialog", { name: `Make ${memberEmail} Editor?` });
  await expect(dialog).toContainText("changes from Viewer to Editor");
  await shots(page, "member-role-confirm");
  expect(await roleOnServer()).toBe("Viewer");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(select).toHaveValue("Viewer");
  expect(await roleOnServer()).toBe("Viewer");

  await select.selectOption("Editor");
  await dialog.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByRole("status")).toContainText(`${memberEmail} is now Editor.`);
  await expect(select).toHaveValue("Editor");
  expect(await roleOnServer()).toBe("Editor");
});

test.describe("phone layout (390 px) on the demo project", () => {
  const demoProject = () => env("E2E_PROJECT_ID");

  test.beforeEach(async ({ page }) => {
    await signIn(page, { email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD") });
    await page.setViewportSize(phone);
  });

  test("project tabs – every section's tab is on screen at 390 px, none behind a sideways scroll", async ({ page }) => {
    await page.goto(`/projects/${demoProject()}/shares`);
    const nav = page.getByRole("navigation", { name: "Project sections" });
    for (const name of ["Templates", "Shares", "Campaigns", "Analytics", "API credentials", "Webhooks", "Audit log"]) {
      await expect(nav.getByRole("link", { name }), name).toBeInViewport({ ratio: 1 });
    }
    expect(await nav.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
    await nav.getByRole("link", { name: "Audit log" }).click();
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    await shots(page, "project-tabs");
  });

  test("campaign recipients – each row's link, its Copy button and its actions are on screen at 390 px", async ({ page }) => {
    const bearer = { Authorization: `Bearer ${env("E2E_API_TOKEN")}` };
    const created = await page.request.post(`/api/Projects/${demoProject()}/campaigns`, { data: { name: `Phone ${run}`, channel: "PROD" }, headers: bearer });
    expect(created.status(), await created.text()).toBe(201);
    const campaignId = ((await created.json()) as Created).id;
    const imported = await page.request.post(`/api/Projects/${demoProject()}/campaigns/${campaignId}/recipients`, {
      headers: { ...bearer, "Content-Type": "text/csv" },
      data: `id,firstName,email\nphone-${run}-1,Dana,dana@example.com\nphone-${run}-2,Eve,eve@example.com\n`,
    });
    expect(imported.ok(), await imported.text()).toBe(true);
    await page.goto(`/projects/${demoProject()}/campaigns/${campaignId}`);
    const rows = page.getByTestId("recipient-row");
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      await row.scrollIntoViewIfNeeded();
      await expect(row.getByTestId("recipient-url")).toBeInViewport();
      await expect(row.getByRole("button", { name: "Copy link" })).toBeInViewport({ ratio: 1 });
      await expect(row.getByRole("button", { name: /^Edit / })).toBeInViewport({ ratio: 1 });
      // The data, each value with its field's key.
      await expect(row.locator('td[data-label="Data"]')).toContainText(/firstName\s*(Dana|Eve)/);
      // Each stacked cell names its column (a ::before label, which text content does not include).
      expect(await row.locator("td").evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, "::before").content))).toEqual(
        ["Data", "Reach", "Link", "Actions"].map((label) => `"${label}"`),
      );
    }
    await shots(page, "campaign-recipients");
  });

  test("analytics dates – written as “27 Nov 2026”, typed or picked from the calendar, never mm/dd/yyyy", async ({ page }) => {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const written = (iso: string) => new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" }).format(new Date(`${iso}T00:00:00Z`));
    const [fromIso, toIso] = [day(10), day(3)];
    await page.goto(`/projects/${demoProject()}/analytics`);
    const from = page.getByLabel("From", { exact: true });
    const to = page.getByLabel("To (included)");
    await expect(from).toBeInViewport({ ratio: 1 });
    await expect(from).toHaveAttribute("placeholder", "27 Nov 2026");

    // A numeric date is refused: 11/27/2026 means another day to half the world.
    await from.fill("11/27/2026");
    await from.blur();
    await expect(page.getByText("Write the day like 27 Nov 2026.")).toBeVisible();

    // Typed as the console writes it (lower case is fine); picked from the calendar (the native picker's input).
    await from.fill(written(fromIso).toLowerCase());
    await from.blur();
    await expect(from).toHaveValue(written(fromIso));
    await page.locator("#analytics-to ~ input[type=date]").fill(toIso);
    await expect(to).toHaveValue(written(toIso));
    await expect(to).not.toHaveValue(/\d+\/\d+\/\d+/);
    await page.getByRole("button", { name: "Apply dates" }).click();
    await expect(page).toHaveURL(new RegExp(`from=${fromIso}.*to=${toIso}|to=${toIso}.*from=${fromIso}`));
    await expect(from).toHaveValue(written(fromIso));
    await shots(page, "analytics-dates");
  });

  test("share QR code – a 4-module quiet zone, 320 px on a desktop, the whole code on screen at 390 px", async ({ page }) => {
    await page.goto(`/projects/${demoProject()}/shares/PROD`);
    const qr = page.getByTestId("share-qr");
    await expect(qr).toBeVisible();
    // Measured on the image itself: the top-left finder pattern's top edge is 7 modules wide.
    const measure = () =>
      qr.evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        const canvas = document.createElement("canvas");
        [canvas.width, canvas.height] = [img.naturalWidth, img.naturalHeight];
        const context = canvas.getContext("2d")!;
        context.drawImage(img, 0, 0);
        const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
        const dark = (x: number, y: number) => data[(y * width + x) * 4]! < 128;
        let [left, top, right, bottom] = [width, height, -1, -1];
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            if (!dark(x, y)) continue;
            if (top === height) top = y;
            left = Math.min(left, x);
            right = Math.max(right, x);
            bottom = y;
          }
        }
        let run = 0;
        while (dark(left + run, top)) run++;
        const modulePixels = run / 7;
        const shown = img.getBoundingClientRect();
        return {
          quiet: [left / modulePixels, top / modulePixels, (width - 1 - right) / modulePixels, (height - 1 - bottom) / modulePixels],
          shownWidth: shown.width,
          shownRight: shown.right,
        };
      });
    await page.setViewportSize(desktop);
    const wide = await measure();
    for (const side of wide.quiet) expect(side).toBeGreaterThanOrEqual(3.9);
    expect(wide.shownWidth).toBeGreaterThanOrEqual(320);
    await page.setViewportSize(phone);
    await qr.scrollIntoViewIfNeeded();
    await expect(qr).toBeInViewport({ ratio: 1 });
    const narrow = await measure();
    expect(narrow.shownRight).toBeLessThanOrEqual(phone.width);
    expect(narrow.shownWidth).toBeGreaterThanOrEqual(280);
    for (const side of narrow.quiet) expect(side).toBeGreaterThanOrEqual(3.9);
    await shots(page, "share-qr");
  });
});
