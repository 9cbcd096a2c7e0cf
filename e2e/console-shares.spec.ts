import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { env } from "./owned-project";
import { cli } from "./sign-in-helpers";

// Shares and API credentials in the console, against the built app: a ProjectManager sets up
// the PROD share of a project whose template is deployed, and a Viewer only looks.

type Created = { id: string };

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
const manager = { email: `share-pm-${run}@example.com`, password: `pw-${randomUUID()}` };
const viewer = { email: `share-viewer-${run}@example.com`, password: `pw-${randomUUID()}` };
let projectId: string;
let token: string;

const sameOrigin = () => ({ Origin: env("E2E_BASE_URL") });
const dir = "testing/fixtures/lottie/weather-card";
/** The weather card with the images its animation shows (an upload without them is refused). */
function weatherCardForm(name = "Weather card", version = "1.0"): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries({ name, version, kind: "LottieStandalone" })) form.set(field, value);
  for (const [role, name, type] of [["templateJson", "data.json", "application/json"], ["manifestJson", "manifest.json", "application/json"], ["assetFiles", "images/img_0.jpg", "image/jpeg"], ["assetFiles", "images/img_1.jpg", "image/jpeg"]] as const) {
    form.append(role, new File([new Uint8Array(readFileSync(`${dir}/${name}`))], name.replace("images/", ""), { type }));
  }
  return form;
}

async function deployWeatherCard(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${token}` };
  const upload = await request.post(`/api/Projects/${projectId}/templates/upload`, {
    headers,
    multipart: weatherCardForm(),
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { id } = (await upload.json()) as Created;
  expect((await request.post(`/api/Projects/${projectId}/templates/${id}/deploy`, { headers })).status()).toBe(200);
}

test.beforeAll(async ({ request }) => {
  const [org, pm, view] = await Promise.all([
    cli<Created>("org", "create", "--name", `Shares ${run}`),
    cli<Created>("user", "create", "--email", manager.email, "--password", manager.password),
    cli<Created>("user", "create", "--email", viewer.email, "--password", viewer.password),
  ]);
  projectId = (await cli<Created>("project", "create", "--org", org.id, "--name", "Renewals")).id;
  await Promise.all([
    cli("member", "add", "--user", pm.id, "--project", projectId, "--role", "ProjectManager"),
    cli("member", "add", "--user", view.id, "--project", projectId, "--role", "Viewer"),
  ]);
  token = (await cli<{ token: string }>("token", "create", "--user", pm.id)).token;
  await deployWeatherCard(request);
});

test("credentials: the secret is shown once and works; the PROD share is set up with live validation; link, QR, disable, restore, rotate", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/credentials`);
  await expect(page.getByText("No API credentials yet")).toBeVisible();
  await page.getByRole("button", { name: "New credential" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill("Shop backend");
  await page.getByRole("dialog").getByRole("button", { name: "Create credential" }).click();
  const apiKey = (await page.getByTestId("api-key").textContent())!;
  const apiSecret = (await page.getByTestId("api-secret").textContent())!;
  expect(apiSecret).toMatch(/^sk_/);
  await page.getByRole("button", { name: "I have copied it" }).click();
  await expect(page.getByText(apiSecret)).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "credentials");

  // The PROD share: live validation, then a server field error, then saved.
  await page.getByRole("link", { name: "Shares" }).click();
  const prod = page.getByRole("listitem", { name: "PROD share" });
  await expect(prod).toContainText("Not configured");
  await expect(prod).toContainText("Weather card 1.0");
  await expectAccessible(page);
  await prod.getByRole("link", { name: "Set up PROD" }).click();
  await page.getByLabel("Title", { exact: true }).fill("x".repeat(161));
  await expect(page.getByText("161 / 160")).toBeVisible();
  await expect(page.getByText("At most 160 characters.")).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill("Your weather, Ana");
  await page.getByLabel("Button label").fill("See the forecast");
  await expect(page.getByText("A button needs a link: give both or neither.")).toBeVisible();
  await page.getByLabel("Button link").fill("javascript:alert(1)");
  await expect(page.getByText("Must be an absolute http:// or https:// address.")).toBeVisible();
  await page.getByLabel("Button link").fill("https://example.com/forecast");
  await page.getByRole("button", { name: "City" }).click();
  await expect(page.getByLabel("Personalization data (JSON)")).toHaveValue(/"City": "Paris"/);
  await page.getByLabel("Personalization data (JSON)").fill('{"City": "Lisbon"');
  await expect(page.getByText(/Not valid JSON/)).toBeVisible();
  await page.getByLabel("Personalization data (JSON)").fill('{"City": "Lisbon"}');
  await page.getByLabel("Locale").fill("pt-BR");
  await page.getByRole("button", { name: "Create the PROD share" }).click();
  await expect(page.getByRole("status")).toContainText("The PROD share is live.");
  const url = (await page.getByTestId("share-url").textContent())!;
  await expect(page.getByRole("img", { name: "QR code of the PROD share link" })).toBeVisible();
  await expect(page.getByText(`share: "${url.split("/").pop()}"`)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "share-edit");

  await page.getByRole("button", { name: "Copy link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const landing = await context.newPage();
  await landing.goto(url);
  await expect(landing.getByRole("heading", { name: "Your weather, Ana" })).toBeVisible();
  await landing.close();

  // The secret mints an embed session for this share's channel.
  const session = await request.post("/api/embed-sessions", {
    headers: { Authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}` },
    data: { channel: "PROD" },
  });
  expect(session.status(), await session.text()).toBe(201);

  // Disable: who and when, and the link is 404; restore; rotate: the old link dies.
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText(`Disabled by ${manager.email} (you)`)).toBeVisible(); // at once (optimistic)
  await expect(page.getByRole("status")).toContainText("its link answers 404"); // the server's answer
  expect((await request.get(url)).status()).toBe(404);
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByText(`Restored by ${manager.email} (you)`)).toBeVisible();
  await expect(page.getByRole("status")).toContainText("The share is live again.");
  expect((await request.get(url)).status()).toBe(200);
  await page.getByRole("button", { name: "Rotate link" }).click();
  await expect(page.getByRole("dialog")).toContainText("stops working at once");
  await page.getByRole("dialog").getByRole("button", { name: "Rotate link" }).click();
  await expect(page.getByTestId("share-url")).not.toHaveText(url);
  const newUrl = (await page.getByTestId("share-url").textContent())!;
  expect((await request.get(url)).status()).toBe(404);
  expect((await request.get(newUrl)).status()).toBe(200);

  // A server refusal shows next to its field: a second credential, picked in the form, is
  // revoked elsewhere before the form is saved.
  const headers = { authorization: `Bearer ${token}` };
  const other = (await (await request.post("/api/credentials", { headers, data: { projectId, name: "Spare" } })).json()) as Created & { apiKey: string };
  await page.reload();
  await page.getByLabel("API credential").selectOption({ label: `Spare (${other.apiKey})` });
  expect((await request.post(`/api/credentials/${other.id}/revoke`, { headers })).status()).toBe(200);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("must be an active API credential of this project")).toBeVisible();
  await expect(page.getByLabel("API credential")).toHaveAttribute("aria-invalid", "true");

  // Revoking the credential names the share that uses it.
  await page.getByRole("link", { name: "API credentials" }).click();
  await page.getByRole("button", { name: `Revoke ${apiKey}` }).click();
  await expect(page.getByRole("list", { name: "Shares using this credential" })).toContainText("PROD: Your weather, Ana");
  await page.getByRole("dialog").getByRole("button", { name: "Revoke credential" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: apiKey })).toContainText("Revoked");
});

test("a Viewer sees the shares without edit controls, and the API refuses their changes", async ({ page }) => {
  await signIn(page, viewer);
  await page.goto(`/projects/${projectId}/shares`);
  const prod = page.getByRole("listitem", { name: "PROD share" });
  await expect(prod).toContainText("Your weather, Ana");
  await prod.getByRole("link", { name: /View/ }).click();
  await expect(page.getByText("You can view this share but not change it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Disable" })).toBeDisabled();
  await expect(page.getByRole("button", { name: /Rotate link/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  const put = await page.request.put(`/api/Projects/${projectId}/public-video-shares/PROD`, { data: { publicTitle: "Hijack" }, headers: sameOrigin() });
  expect(put.status()).toBe(403);
  expect((await page.request.post(`/api/Projects/${projectId}/public-video-shares/PROD/disable`, { headers: sameOrigin() })).status()).toBe(403);
  await page.goto(`/projects/${projectId}/credentials`);
  await expect(page.getByText(/Credentials need the ProjectManager role/)).toBeVisible();
  // The console streams its pages (loading state first), so Next sends its not-found page with 200.
  await page.goto(`/projects/${projectId}/shares/NOPE`);
  await expect(page.getByText(/could not be found|not found/i).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Disable" })).toHaveCount(0);
});

test("channels: DEV and STAGING play the newest Testing template until one is pinned; PROD follows deploys; a Viewer cannot pin", async ({ page, request }) => {
  const headers = { authorization: `Bearer ${token}` };
  for (const version of ["1.1", "1.2"]) {
    const upload = await request.post(`/api/Projects/${projectId}/templates/upload`, { headers, multipart: weatherCardForm("Candidate", version) });
    expect(upload.status(), await upload.text()).toBe(201);
  }
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/shares`);
  const card = (channel: string) => page.getByRole("listitem", { name: `${channel} share` });
  await expect(card("DEV").getByTestId("served-template")).toHaveText("Plays: Candidate 1.2 (the newest Testing template)");
  await expect(card("PROD").getByTestId("served-template")).toHaveText("Plays: Weather card 1.0 (the Production template)");

  // STAGING pinned to 1.1: DEV still plays the newest.
  await card("STAGING").getByLabel("Template for STAGING").selectOption({ label: "Candidate 1.1" });
  await expect(page.getByRole("status").filter({ hasText: "STAGING now plays Candidate 1.1." })).toBeVisible();
  await expect(card("STAGING").getByTestId("served-template")).toHaveText("Plays: Candidate 1.1 (pinned to this channel)");
  await expect(card("DEV").getByTestId("served-template")).toHaveText("Plays: Candidate 1.2 (the newest Testing template)");
  await screenshots(page, "channels-pinned");
  await expectAccessible(page);
  const channels = await request.get(`/api/Projects/${projectId}/channels`, { headers });
  const staging = ((await channels.json()) as { items: { channel: string; because: string; served: { version: string } }[] }).items.find((item) => item.channel === "STAGING");
  expect(staging).toMatchObject({ because: "pinned", served: { version: "1.1" } });

  // The Viewer sees it, and cannot change it.
  await page.context().clearCookies();
  await signIn(page, viewer);
  await page.goto(`/projects/${projectId}/shares`);
  await expect(card("STAGING").getByLabel("Template for STAGING")).toBeDisabled();
  await expect(card("STAGING").getByLabel("Template for STAGING")).toHaveAttribute("title", "Needs the ProjectManager role; you are Viewer.");

  // Unpinned by the manager: STAGING follows the newest again.
  await page.context().clearCookies();
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/shares`);
  await card("STAGING").getByLabel("Template for STAGING").selectOption({ label: "Newest Testing template (no pin)" });
  await expect(card("STAGING").getByTestId("served-template")).toHaveText("Plays: Candidate 1.2 (the newest Testing template)");
});
