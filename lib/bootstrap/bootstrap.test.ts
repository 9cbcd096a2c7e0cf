import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/secrets";
import { findUserByEmail, listProjectsForUser } from "@/lib/accounts/accounts";
import { bootstrapDemo, demoAdminEmail, formatBootstrapBanner } from "./bootstrap";

describe("bootstrapDemo", () => {
  it("creates the demo once and returns the same organization, project, login and token on later runs", async () => {
    const db = await getDb();
    const first = await bootstrapDemo(db);
    const second = await bootstrapDemo(db);
    expect(second).toEqual(first);

    expect(first.admin.password).toBeTruthy();
    const admin = await findUserByEmail(db, demoAdminEmail);
    expect(await verifyPassword(first.admin.password!, admin!.passwordHash!)).toBe(true);
    expect(first.token).toMatch(/^rbk_/);
    expect(first.apiCredential.apiKey).toMatch(/^pk_/);

    const projects = await listProjectsForUser(db, admin!.id);
    expect(projects.filter((p) => p.id === first.project.id)).toEqual([
      expect.objectContaining({ name: "Demo project", role: "OrganizationAdmin" }),
    ]);
  });

  it("prints every line the quick start promises", async () => {
    const banner = formatBootstrapBanner(await bootstrapDemo(await getDb()));
    for (const label of ["Console:", "Admin login:", "Password:", "API token:", "Organization:", "Project:"]) {
      expect(banner).toContain(label);
    }
  });
});
