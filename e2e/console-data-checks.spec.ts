import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, screenshots as consoleScreenshots, signIn } from "./console-helpers";
import { cli } from "./sign-in-helpers";

// Issue 32: the console catches mistakes before viewers see them. The share form checks its
// personalization data against the template the channel plays, with the rules and the words of
// that template's live preview (a strict field refuses); the embed snippet carries the share's
// own data; an upload of swapped files says so first, the parser's detail below.

type Created = { id: string };

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
const manager = { email: `data-pm-${run}@example.com`, password: `pw-${randomUUID()}` };
let projectId: string;
let templateId: string;

const dir = "testing/fixtures/lottie/weather-card";
const lottieFile = () => ({ name: "data.json", mimeType: "application/json", buffer: readFileSync(`${dir}/data.json`) });
/** City is shortened beyond 12 characters (a warning); Status is strict: beyond 10 it is refused. */
const manifest = {
  version: 1,
  fields: [
    { key: "City", type: "text", target: { layer: "City" }, default: "Paris", maxLength: 12 },
    { key: "Status", type: "text", target: { layer: "Status" }, default: "Sunny", maxLength: 10, strict: true },
  ],
};
const imageFile = (name: string) => ({ name, mimeType: "image/jpeg", buffer: readFileSync(`${dir}/images/${name}`) });
const manifestFile = () => ({ name: "manifest.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(manifest)) });

/** Screenshots at 1280 and 390 pixels wide (issue 32's phone width). */
const screenshots = (page: Page, name: string) => consoleScreenshots(page, name, { phoneWidth: 390 });

test.beforeAll(async ({ request }) => {
  const [org, pm] = await Promise.all([
    cli<Created>("org", "create", "--name", `Data checks ${run}`),
    cli<Created>("user", "create", "--email", manager.email, "--password", manager.password),
  ]);
  projectId = (await cli<Created>("project", "create", "--org", org.id, "--name", "Weather")).id;
  await cli("member", "add", "--user", pm.id, "--project", projectId, "--role", "ProjectManager");
  const token = (await cli<{ token: string }>("token", "create", "--user", pm.id)).token;
  const headers = { authorization: `Bearer ${token}` };
  // The images its animation shows go with it (an upload without them is refused).
  const form = new FormData();
  for (const [name, value] of Object.entries({ name: "Weather card", version: "1.0", kind: "LottieStandalone" })) form.set(name, value);
  for (const [role, file] of [
    ["templateJson", lottieFile()],
    ["manifestJson", manifestFile()],
    ["assetFiles", imageFile("img_0.jpg")],
    ["assetFiles", imageFile("img_1.jpg")],
  ] as const) {
    form.append(role, new File([new Uint8Array(file.buffer)], file.name, { type: file.mimeType }));
  }
  const upload = await request.post(`/api/Projects/${projectId}/templates/upload`, { headers, multipart: form });
  expect(upload.status(), await upload.text()).toBe(201);
  templateId = ((await upload.json()) as Created).id;
  expect((await request.post(`/api/Projects/${projectId}/templates/${templateId}/deploy`, { headers })).status()).toBe(200);
  expect((await request.post("/api/credentials", { headers, data: { projectId, name: "Site" } })).status()).toBe(201);
});

test("share form: the template's data rules warn under the data in the live preview's words, a strict field refuses, the saved toast lists the warnings; the embed snippet carries the share's data", async ({ page }) => {
  const puts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PUT") puts.push(request.postData() ?? "");
  });
  await signIn(page, manager);

  // The live preview's own wording for a long City.
  await page.goto(`/projects/${projectId}/templates/${templateId}`);
  await page.getByLabel("City", { exact: true }).fill("Maximilianoooooo");
  await expect(page.getByText('"City" was shortened to 12 characters')).toBeVisible({ timeout: 60_000 });

  await page.goto(`/projects/${projectId}/shares/PROD`);
  await page.getByLabel("Title", { exact: true }).fill("Your weather");
  const data = page.getByLabel("Personalization data (JSON)");
  const warnings = page.getByRole("region", { name: "Personalization data warnings" });

  // A strict field's problem blocks the save, naming the template; nothing is sent.
  await data.fill('{"Status": "Thunderstorms"}');
  await expect(page.getByText('Weather card 1.0 refuses this data: "Status" is 13 characters; the template allows at most 10.')).toBeVisible();
  await page.getByRole("button", { name: "Create the PROD share" }).click();
  await expect(page.getByText(/refuses this data/)).toBeVisible();

  // The data: warnings before the save, in the preview's words.
  await data.fill('{"nickname": "Max", "City": "Maximilianoooooo"}');
  await expect(warnings).toContainText("Weather card 1.0 will not show this data as written");
  await expect(warnings.getByRole("listitem")).toHaveText(['unknown key "nickname"', '"City" was shortened to 12 characters']);
  await expectAccessible(page);
  await screenshots(page, "share-data-warnings");

  await page.getByRole("button", { name: "Create the PROD share" }).click();
  await expect(
    page.getByText('The PROD share is live, with 2 warnings about its personalization data: unknown key "nickname"; "City" was shortened to 12 characters.'),
  ).toBeVisible();
  // Saved, the warnings stay under the data.
  await expect(warnings.getByRole("listitem")).toHaveCount(2);

  // The snippet plays what the share plays: its data, not the template's defaults.
  // (Stored as jsonb, the data comes back with its keys in jsonb's order: compared as objects.)
  const pageCode = page.getByLabel("On your page code");
  const curlCode = page.getByLabel("Embed session (curl) code");
  const saved = { nickname: "Max", City: "Maximilianoooooo" };
  await expect(pageCode).toContainText("data: {");
  expect(JSON.parse(/\n {4}data: (\{.*\}),\n/.exec((await pageCode.textContent())!)![1]!)).toEqual(saved);
  await expect(pageCode).not.toContainText("Paris");
  expect(JSON.parse(/"personalizationData": (\{.*?\}), "allowedOrigins"/.exec((await curlCode.textContent())!)![1]!)).toEqual(saved);

  // Without data, the snippet has no data block: the share's own (none) applies.
  await data.fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Share saved.", { exact: true })).toBeVisible();
  await expect(pageCode).not.toContainText("data:");
  await expect(curlCode).not.toContainText("personalizationData");
  // Two saves reached the server; the refused draft never did.
  expect(puts).toHaveLength(2);
  expect(puts.some((body) => body.includes("Thunderstorms"))).toBe(false);
});

// A swapped pair reaching the server gets the sentence saying which file goes where
// (upload.test.ts, "swapped"); the form no longer lets one through: it reads each JSON file
// and puts it in its field (issue 32, point 3).
test("upload: the Lottie and the manifest picked into each other's fields → the form puts each in its own and says so; the upload goes through", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await page.getByLabel("Name", { exact: true }).fill("Swapped");
  await page.getByLabel("Lottie JSON", { exact: true }).setInputFiles(manifestFile());
  await page.getByLabel("Binding manifest", { exact: true }).setInputFiles(lottieFile());
  const chosen = (label: string) => page.getByRole("list", { name: `${label}: chosen` }).getByRole("listitem");
  await expect(chosen("Lottie JSON")).toHaveText([/^data\.json/]);
  await expect(chosen("Binding manifest")).toHaveText([/^manifest\.json/]);
  await expect(page.getByRole("region", { name: "Files sorted" })).toContainText("data.json → Lottie JSON");
  await page.getByLabel("Asset files", { exact: true }).setInputFiles([imageFile("img_0.jpg"), imageFile("img_1.jpg")]);
  await screenshots(page, "upload-swapped-files");
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/templates/[0-9a-f-]{36}$`));
});
