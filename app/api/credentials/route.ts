import { withActor } from "@/lib/api/handler";
import { readJsonBody, searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { authorizeProject } from "@/lib/auth/project-access";
import { createCredential, listCredentials } from "@/lib/credentials/credentials";
import { createCredentialBody, listCredentialsQuery } from "@/lib/credentials/contract";

// GET /api/credentials?projectId= – the project's credentials, without secrets
export const GET = withActor(async ({ req, actor, db }) => {
  const { projectId } = parseInput(listCredentialsQuery, searchParamsObject(req));
  const access = await authorizeProject(db, actor, projectId, "credential.read");
  return json({ items: await listCredentials({ db, actor, access }) });
});

// POST /api/credentials – create a key/secret pair; the secret is in this response only
export const POST = withActor(async ({ req, actor, db }) => {
  const input = await readJsonBody(req, createCredentialBody);
  const access = await authorizeProject(db, actor, input.projectId, "credential.write");
  return json(await createCredential({ db, actor, access }, input), 201);
});
