import { randomUUID } from "node:crypto";
import { cli } from "./owned-project";

// Helpers of the security-limits specs: users with a role.

/** A new user of the main test server with `role` on one project, and a bearer token of theirs. */
export async function createProjectMember(projectId: string, role: "Viewer" | "Editor" | "ProjectManager", label: string) {
  const email = `${label.toLowerCase().replace(/\W+/g, "-")}-${randomUUID()}@example.com`;
  await cli("user", "create", "--email", email);
  await cli("member", "add", "--user", email, "--project", projectId, "--role", role);
  const { token } = await cli<{ token: string }>("token", "create", "--user", email);
  return { email, token };
}
