import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { env } from "./owned-project";

// Issue 35 in the browser, as a marketer runs it on the demo project's PROD share: a CSV as a CRM
// exports it (a BOM, `;`, headers with spaces and capitals) whose columns do not name the
// template's fields. The check step matches "First Name", "ID" and "E-mail" by name, one column
// is mapped by hand and another ignored; the import adds three people in the file's order. A
// changed CSV imported again updates (no duplicates, links kept, the mapping remembered); a
// removed recipient's link is the share's 404; the export carries each recipient's data.

test.describe.configure({ timeout: 240_000 });

const run = randomUUID().slice(0, 6);
const people = [
  { id: `crm-${run}-1`, name: "Mei-Ling", email: "mei-ling@example.com", plan: "Northwind Pro" },
  { id: `crm-${run}-2`, name: "Bruno", email: "bruno@example.com", plan: "Northwind Plus" },
  { id: `crm-${run}-3`, name: "Zoë", email: "zoe@example.com", plan: "Northwind Go" },
];
const crmCsv = (rows: typeof people) => `\ufeffID;First Name;E-mail;Plan;Notes\r\n${rows.map((p) => `${p.id};${p.name};${p.email};${p.plan};called twice`).join("\r\n")}\r\n`;
const csvFile = (content: string, name: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(content, "utf8") });
const bearer = () => ({ Authorization: `Bearer ${env("E2E_API_TOKEN")}` });

type Recipient = { id: string; externalId: string; email: string | null; data: Record<string, string>; url: string };

test("a CRM's CSV: columns matched and mapped, imported in order; a changed CSV updates; a removed recipient's link is 404; the export has the data", async ({ page, request }) => {
  const projectId = env("E2E_PROJECT_ID");
  await signIn(page, { email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD") });
  await page.goto(`/projects/${projectId}/campaigns`);
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Campaign name").fill(`CRM renewals ${run}`);
  await form.getByLabel("Share").selectOption("PROD");
  await form.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `CRM renewals ${run}` })).toBeVisible();
  const campaignId = new URL(page.url()).pathname.split("/").at(-1)!;
  const api = `/api/Projects/${projectId}/campaigns/${campaignId}`;

  // The check: three columns matched by name, "Plan" matched by nothing (ignored, with a warning).
  await page.getByLabel("CSV file").setInputFiles(csvFile(crmCsv(people), "crm-export.csv"));
  const check = page.getByRole("form", { name: "Check the columns and import" });
  const fills = (column: string) => check.getByLabel(`What the column ${column} fills`);
  // A column's row, by its header cell (every row's select lists the field names too).
  const columnRow = (column: string) => check.getByTestId("column-mapping").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${column}( matched by name)?$`) }) });
  await expect(fills("First Name")).toHaveValue("firstName");
  await expect(fills("ID")).toHaveValue("$id");
  await expect(fills("E-mail")).toHaveValue("$email");
  await expect(fills("Plan")).toHaveValue("$ignore");
  await expect(columnRow("First Name")).toContainText("matched by name");
  await expect(check).toContainText("The file has 3 rows: 3 new recipients, 0 to update, 0 unchanged, 0 refused.");
  await expect(check).toContainText('column "Plan"');

  // "Plan" mapped by hand to planName, "Notes" ignored: the check runs again with that mapping.
  await fills("Plan").selectOption("planName");
  await fills("Notes").selectOption("$ignore");
  await expect(columnRow("Plan")).toContainText("Northwind Pro");
  await expect(check).not.toContainText('column "Plan"');
  // The columns matched by name keep saying so; the one chosen by hand does not.
  await expect(columnRow("First Name")).toContainText("matched by name");
  await expect(columnRow("Plan")).not.toContainText("matched by name");
  await screenshots(page, "campaign-mapping");
  await expectAccessible(page);
  await check.getByRole("button", { name: "Import crm-export.csv" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 3 recipients, updated 0, 0 unchanged; 0 rows refused." })).toBeVisible();

  const list = async () => {
    const response = await request.get(`${api}/recipients`, { headers: bearer() });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { items: Recipient[] }).items;
  };
  const imported = await list();
  // In the file's order, known by their ids, with the mapped data.
  expect(imported.map((item) => [item.externalId, item.email, item.data.firstName, item.data.planName])).toEqual(people.map((p) => [p.id, p.email, p.name, p.plan]));
  await expect(page.getByTestId("recipient-row")).toHaveCount(3);
  await expect(page.getByTestId("recipient-row").first()).toContainText("mei-ling@example.com");

  // The CRM's next export: Bruno's plan changed. The mapping is remembered; Bruno is updated, not added.
  const changed = people.map((p) => (p.name === "Bruno" ? { ...p, plan: "Northwind Max" } : p));
  await page.getByLabel("CSV file").setInputFiles(csvFile(crmCsv(changed), "crm-export-2.csv"));
  await expect(fills("Plan")).toHaveValue("planName");
  await expect(check).toContainText("The file has 3 rows: 0 new recipients, 1 to update, 2 unchanged, 0 refused.");
  await check.getByRole("button", { name: "Import crm-export-2.csv" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 0 recipients, updated 1, 2 unchanged; 0 rows refused." })).toBeVisible();
  const updated = await list();
  expect(updated).toHaveLength(3);
  expect(updated.map((item) => item.url)).toEqual(imported.map((item) => item.url));
  expect(updated.find((item) => item.externalId === people[1]!.id)!.data.planName).toBe("Northwind Max");

  // Zoë is removed: her link is the share's 404 page from now on; the others still play.
  const zoe = updated[2]!;
  expect((await request.get(zoe.url)).status()).toBe(200);
  const zoeRow = page.getByTestId("recipient-row").filter({ hasText: "zoe@example.com" });
  await zoeRow.getByRole("button", { name: "Remove zoe@example.com" }).click();
  await page.getByRole("dialog", { name: "Remove zoe@example.com?" }).getByRole("button", { name: "Remove" }).click();
  await expect(page.getByTestId("recipient-row")).toHaveCount(2);
  expect((await request.get(zoe.url)).status()).toBe(404);
  expect((await request.get(updated[0]!.url)).status()).toBe(200);

  // The export: each recipient's id, e-mail, link and data columns.
  const exported = await request.get(`${api}/export`, { headers: bearer() });
  const [header, ...rows] = (await exported.text()).trimEnd().split("\r\n");
  const columns = header!.split(",");
  expect(columns.slice(0, 3)).toEqual(["recipient_id", "email", "url"]);
  expect(columns).toEqual(expect.arrayContaining(["firstName", "planName"]));
  const bruno = rows.map((row) => row.split(",")).find((cells) => cells[0] === people[1]!.id)!;
  expect(bruno[columns.indexOf("planName")]).toBe("Northwind Max");
  expect(rows).toHaveLength(2);
  await screenshots(page, "campaign-recipients-edited");
});
