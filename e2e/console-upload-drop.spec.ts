import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, screenshots as consoleScreenshots, signIn } from "./console-helpers";
import { cli } from "./sign-in-helpers";

// Issue 32, findings 2 and 3, in the console: the README's "drop the demo folder's files on the
// upload form" works (each file sorted into its field, a line per file saying where, wrong
// files refused), and an upload missing an image the animation shows is refused with the file's
// name, or taken with a warning the form shows when personalization data fills that image.

test.describe.configure({ timeout: 300_000 });

const demoDir = "lib/bootstrap/demo-template/landscape";
const weatherDir = "testing/fixtures/lottie/weather-card";
type DropFile = { name: string; mimeType: string; buffer: Buffer };
const fromDisk = (file: string, mimeType: string): DropFile => ({ name: path.basename(file), mimeType, buffer: readFileSync(file) });
const demoFiles = () => [fromDisk(`${demoDir}/data.json`, "application/json"), fromDisk(`${demoDir}/manifest.json`, "application/json"), fromDisk(`${demoDir}/images/logo.png`, "image/png")];
const notes: DropFile = { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("remember the logo") };

let projectId: string;
let manager: { email: string; password: string };

test.beforeAll(async () => {
  const run = randomUUID();
  manager = { email: `upload-drop-${run}@example.com`, password: `pw-${randomUUID()}` };
  const [org] = await Promise.all([cli<{ id: string }>("org", "create", "--name", `Upload drop ${run}`), cli("user", "create", "--email", manager.email, "--password", manager.password)]);
  const project = await cli<{ id: string }>("project", "create", "--org", org.id, "--name", "Upload drop e2e");
  await cli("member", "add", "--user", manager.email, "--project", project.id, "--role", "ProjectManager");
  projectId = project.id;
});

/** Drops files on the element labelled `label` (a field's input, or the form), as a drag from the desktop delivers them: one DataTransfer built in the page. */
async function drop(page: Page, target: ReturnType<Page["getByLabel"]>, files: DropFile[]) {
  const transfer = await page.evaluateHandle(
    (list) => {
      const data = new DataTransfer();
      for (const { name, mimeType, base64 } of list) data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: mimeType }));
      return data;
    },
    files.map(({ name, mimeType, buffer }) => ({ name, mimeType, base64: buffer.toString("base64") })),
  );
  await target.dispatchEvent("drop", { dataTransfer: transfer });
}

const sortedLines = (page: Page) => page.getByRole("region", { name: "Files sorted" }).getByRole("listitem");
const chosen = (page: Page, label: string) => page.getByRole("list", { name: `${label}: chosen` }).getByRole("listitem");
const formAlert = (page: Page) => page.getByRole("form", { name: "Upload a template" }).getByRole("alert");

/** Screenshots at 1280 and 390 pixels wide (issue 32's phone width). */
const screenshots = (page: Page, name: string) => consoleScreenshots(page, name, { phoneWidth: 390 });

test("Upload form – the demo folder's files and a text file dropped on the Lottie field: each sorted into its field, one line per file; uploaded", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await page.getByLabel("Name", { exact: true }).fill("Dropped welcome");

  await drop(page, page.getByLabel("Lottie JSON", { exact: true }), [...demoFiles(), notes]);
  await expect(sortedLines(page)).toHaveText(["data.json → Lottie JSON", "manifest.json → Binding manifest", "logo.png → Asset files", "notes.txt → ignored: not a template file"]);
  await expect(page.getByRole("region", { name: "Files sorted" })).toContainText("4 files: 3 added, 1 left out.");
  await expect(chosen(page, "Lottie JSON")).toHaveText([/^data\.json/]);
  await expect(chosen(page, "Binding manifest")).toHaveText([/^manifest\.json/]);
  await expect(chosen(page, "Asset files")).toHaveText([/^logo\.png/]);

  // One wrong file on one field: refused there, and the field keeps its file.
  await drop(page, page.getByLabel("Lottie JSON", { exact: true }), [notes]);
  await expect(sortedLines(page)).toHaveText(["notes.txt → refused: Lottie JSON takes a .json file (not a template file)"]);
  await expect(chosen(page, "Lottie JSON")).toHaveText([/^data\.json/]);
  await screenshots(page, "upload-drop-sorted");
  await expectAccessible(page);

  const uploaded = page.waitForResponse((response) => response.url().endsWith("/templates/upload"));
  await page.getByRole("button", { name: "Upload template" }).click();
  expect((await uploaded).status()).toBe(201);
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/templates/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { name: /Dropped welcome/ })).toBeVisible();
});

test("Upload form – a folder picked with Choose a folder…, and files dropped on the form around the fields, are sorted the same way", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await page.getByLabel("Choose a folder…").setInputFiles("lib/bootstrap/demo-template/portrait");
  await expect(sortedLines(page)).toHaveCount(3);
  // The picker lists a folder in an order of its own.
  expect((await sortedLines(page).allTextContents()).sort()).toEqual(["portrait/data.json → Lottie JSON", "portrait/images/logo.png → Asset files", "portrait/manifest.json → Binding manifest"]);

  // Dropped on the form itself (the heading), not on a field: the landscape files replace the portrait ones.
  await drop(page, page.getByRole("form", { name: "Upload a template" }), demoFiles());
  await expect(sortedLines(page)).toHaveText([
    "data.json → Lottie JSON (replaces the earlier data.json)",
    "manifest.json → Binding manifest (replaces the earlier manifest.json)",
    "logo.png → Asset files (replaces the earlier logo.png)",
  ]);
  await expect(chosen(page, "Asset files")).toHaveCount(1);
});

test("Upload form – the demo without its logo → refused, the Asset files field names logo.png; nothing is created", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await page.getByLabel("Name", { exact: true }).fill("Welcome without logo");
  await drop(page, page.getByLabel("Lottie JSON", { exact: true }), demoFiles().slice(0, 2));
  await expect(sortedLines(page)).toHaveCount(2);
  await expect(page.getByRole("region", { name: "Files sorted" })).toContainText("2 files added:");

  const refused = page.waitForResponse((response) => response.url().endsWith("/templates/upload"));
  await page.getByRole("button", { name: "Upload template" }).click();
  expect((await refused).status()).toBe(422);
  await expect(formAlert(page)).toContainText("The server refused the upload (1 problem)");
  await expect(page.getByLabel("Asset files", { exact: true })).toHaveAccessibleDescription(/Asset files must include logo\.png: the animation's image asset "logo" shows it/);
  await screenshots(page, "upload-drop-missing-logo");
});

test("Upload form – the weather card without the image its avatar field fills → uploaded, and the form says what to check before moving on", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await page.getByLabel("Name", { exact: true }).fill("Weather without avatar");
  await drop(page, page.getByLabel("Asset files", { exact: true }), [
    fromDisk(`${weatherDir}/data.json`, "application/json"),
    fromDisk(`${weatherDir}/manifest.json`, "application/json"),
    fromDisk(`${weatherDir}/images/img_1.jpg`, "image/jpeg"),
  ]);
  await expect(sortedLines(page)).toHaveText(["data.json → Lottie JSON", "manifest.json → Binding manifest", "img_1.jpg → Asset files"]);

  const uploaded = page.waitForResponse((response) => response.url().endsWith("/templates/upload"));
  await page.getByRole("button", { name: "Upload template" }).click();
  expect((await uploaded).status()).toBe(201);
  await expect(page.getByRole("heading", { name: "Weather without avatar 1.0 uploaded; it is in Testing" })).toBeFocused();
  await expect(page.getByRole("region", { name: /uploaded; it is in Testing/ }).getByRole("alert")).toContainText('img_0.jpg is not among the asset files: the animation\'s image asset "image_0" shows it, and the manifest\'s image field "avatar" fills it');
  await screenshots(page, "upload-accepted-with-warning");
  await expectAccessible(page);
  await page.getByRole("link", { name: "Open the template" }).click();
  await expect(page.getByRole("heading", { name: /Weather without avatar/ })).toBeVisible();
});
