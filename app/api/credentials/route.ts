import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { createCredential, listCredentials } from "@/lib/credentials/credentials";
import { createCredentialBody, createdCredentialSchema, credentialSchema, listCredentialsQuery } from "@/lib/credentials/contract";

export const GET = defineRoute(
  {
    path: "/api/credentials",
    operationId: "listCredentials",
    tag: "Credentials",
    summary: "List a project's API credentials (never the secret)",
    access: { project: "credential.read" },
    query: listCredentialsQuery,
    responses: { 200: { description: "The credentials", schema: listOf(credentialSchema) } },
    errors: { 404: "No such project, or no access to it" },
  },
  async ({ actor, db, access }) => json({ items: await listCredentials({ db, actor, access }) }),
);

export const POST = defineRoute(
  {
    path: "/api/credentials",
    operationId: "createCredential",
    tag: "Credentials",
    summary: "Create an API credential; the secret is returned only here",
    access: { project: "credential.write" },
    body: createCredentialBody,
    responses: { 201: { description: "The new credential with its secret", schema: createdCredentialSchema } },
    errors: { 404: "No such project, or no access to it" },
  },
  async ({ actor, db, access, body }) => json(await createCredential({ db, actor, access }, body), 201),
);
