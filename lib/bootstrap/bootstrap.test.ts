import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { templates } from "@/lib/db/schema";
import { formatData } from "@/shared/templates/format-values";
import type { BindingManifest, TemplateField } from "@/shared/templates/manifest";
import { verifyPassword } from "@/lib/auth/secrets";
import { findUserByEmail, listProjectsForUser } from "@/lib/accounts/accounts";
import { findPublicShare } from "@/lib/shares/public-share";
import { bootstrapDemo, formatBootstrapBanner } from "./bootstrap";

// A demo admin of this file's own, so that runs against a shared PostgreSQL database stay apart.
const adminEmail = `admin-${randomUUID()}@demo.test`;
const bootstrap = async () => bootstrapDemo(await getDb(), { adminEmail });

describe("bootstrapDemo", () => {
  it("creates the demo once and returns the same organization, project, login and token on later runs", async () => {
    const db = await getDb();
    const first = await bootstrap();
    const second = await bootstrap();
    expect(second).toEqual(first);

    expect(first.admin.password).toBeTruthy();
    const admin = await findUserByEmail(db, adminEmail);
    expect(await verifyPassword(first.admin.password!, admin!.passwordHash!)).toBe(true);
    expect(first.token).toMatch(/^rbk_/);
    expect(first.apiCredential.apiKey).toMatch(/^pk_/);
    expect(first.share).toEqual({ channel: "PROD", status: "Enabled", url: expect.stringMatching(/\/v\/[0-9A-Za-z]{22}$/) });
    const slug = first.share.url.split("/v/")[1]!;
    expect(await findPublicShare(db, slug)).toMatchObject({ projectId: first.project.id, channel: "PROD" });

    const projects = await listProjectsForUser(db, admin!.id);
    expect(projects.filter((p) => p.id === first.project.id)).toEqual([
      expect.objectContaining({ name: "Demo project", role: "OrganizationAdmin" }),
    ]);
  });

  it("uploads Reelbind's demo template: the landscape version deployed, the portrait one Testing; the PROD share (en-US) and the STAGING share (de-DE) hold the raw values its fields format", async () => {
    const db = await getDb();
    const result = await bootstrap();
    const rows = await db
      .select({ id: templates.id, name: templates.name, version: templates.version, status: templates.status, width: templates.width, height: templates.height, fields: templates.fields })
      .from(templates)
      .where(eq(templates.projectId, result.project.id))
      .orderBy(asc(templates.name));
    expect(rows.map(({ name, version, status, width, height }) => ({ name, version, status, width, height }))).toEqual([
      { name: "Welcome message", version: "1.0", status: "Production", width: 1280, height: 720 },
      { name: "Welcome message (portrait)", version: "1.0", status: "Testing", width: 720, height: 1280 },
    ]);
    expect(result.template).toEqual({ id: rows[0]!.id, name: "Welcome message", version: "1.0", status: "Production" });

    const share = await findPublicShare(db, result.share.url.split("/v/")[1]!);
    expect(share).toMatchObject({ locale: "en-US", ctaLabel: "Manage my plan", template: expect.objectContaining({ id: rows[0]!.id }) });
    const data = share!.personalizationData as Record<string, string>;
    expect(data).toEqual({ firstName: "Ana", planName: "Northwind Plus", renewalDate: "2027-03-03", amount: "24" });
    // STAGING plays the newest Testing template: the portrait version.
    const german = await findPublicShare(db, result.stagingShare.url.split("/v/")[1]!);
    expect(german).toMatchObject({ channel: "STAGING", locale: "de-DE", personalizationData: data, template: expect.objectContaining({ id: rows[1]!.id }) });
    // What the viewers read: each locale's formatting of the raw values, within the fields' maxLength.
    const [manifest] = await db.select({ manifest: templates.manifest }).from(templates).where(eq(templates.id, rows[0]!.id));
    const manifestFields = (manifest!.manifest as BindingManifest).fields;
    expect(formatData(manifestFields, data, "en-US").data).toMatchObject({ renewalDate: "March 3, 2027", amount: "$24.00" });
    const germanValues = formatData(manifestFields, data, "de-DE").data;
    expect(germanValues).toMatchObject({ renewalDate: "3. März 2027", amount: "24,00\u00a0$" });
    for (const { fields } of rows) {
      const byKey = new Map((fields as TemplateField[]).map((field) => [field.key, field]));
      expect([...byKey.keys()].sort()).toEqual(["amount", "firstName", "logo", "planName", "renewalDate"]);
      for (const values of [formatData(manifestFields, data, "en-US").data, germanValues]) {
        for (const [key, value] of Object.entries(values)) expect([...value].length).toBeLessThanOrEqual(byKey.get(key)!.maxLength!);
      }
    }
  });

  it("prints every line the quick start promises", async () => {
    const banner = formatBootstrapBanner(await bootstrap());
    for (const label of ["Base URL:", "Console:", "Admin login:", "Password:", "API token:", "Organization:", "Project:", "PROD share:", "STAGING share:"]) {
      expect(banner).toContain(label);
    }
    expect(banner).toMatch(/ {2}STAGING share: http\S+\/v\/\S+ \(de-DE\)\n/);
    // The shell line sets what the examples (README, docs/api.md) use, to this run's values.
    const result = await bootstrap();
    expect(banner).toContain(`export BASE=${result.baseUrl} TOKEN=${result.token} PROJECT=${result.project.id}\n`);
  });
});

describe("bootstrapDemo – DATA_DIR/bootstrap.json from another database", () => {
  it("prints no password it cannot vouch for, and mints a token that works here", async () => {
    const first = await bootstrap();
    const file = path.join(process.env.DATA_DIR!, "bootstrap.json");
    writeFileSync(file, JSON.stringify({ adminPassword: "from-elsewhere", adminToken: "rbk_fromelsewhere", apiSecret: "sk_fromelsewhere" }));

    const again = await bootstrap();
    expect(again.admin.password).toBeNull();
    expect(again.apiCredential.apiSecret).toBeNull();
    expect(again.apiCredential.id).toBe(first.apiCredential.id);
    expect(again.token).not.toBe("rbk_fromelsewhere");
    expect(again.token).not.toBe(first.token);
    expect(again.project.id).toBe(first.project.id);
  });
});
