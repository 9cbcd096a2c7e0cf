import { z } from "zod";
import { createOrganizationProject } from "@/lib/accounts/organizations";
import { createProjectBody } from "@/lib/accounts/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";

const createdProjectSchema = z.object({ id: z.uuid(), organizationId: z.uuid(), name: z.string(), createdAt: z.iso.datetime() });

export const POST = defineRoute(
  {
    path: "/api/organizations/{orgId}/projects",
    operationId: "createProject",
    tag: "Organizations",
    summary: "Create a project in the organization",
    access: { organization: "project.manage" },
    body: createProjectBody,
    responses: { 201: { description: "The new project", schema: createdProjectSchema } },
  },
  async ({ actor, db, access, body }) => json(await createOrganizationProject({ db, actor, access }, body), 201),
);
