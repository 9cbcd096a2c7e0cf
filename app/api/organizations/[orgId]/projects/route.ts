import { authorizeOrganization, createOrganizationProject } from "@/lib/accounts/organizations";
import { createProjectBody } from "@/lib/accounts/contract";
import { withActor } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";

// POST /api/organizations/{orgId}/projects – a new project (OrganizationAdmin)
export const POST = withActor<{ orgId: string }>(async ({ req, params, actor, db }) => {
  const access = await authorizeOrganization(db, actor, params.orgId, "project.manage");
  return json(await createOrganizationProject({ db, actor, access }, await readJsonBody(req, createProjectBody)), 201);
});
