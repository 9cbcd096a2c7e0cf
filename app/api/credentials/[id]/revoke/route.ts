import { withActor } from "@/lib/api/handler";
import { parseInput } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { authorizeProject } from "@/lib/auth/project-access";
import { getCredentialProjectId, revokeCredential } from "@/lib/credentials/credentials";
import { credentialIdSchema } from "@/lib/credentials/schema";
import { NotFoundError } from "@/lib/api/errors";

// POST /api/credentials/{id}/revoke – revoke a credential (idempotent)
export const POST = withActor<{ id: string }>(async ({ params, actor, db }) => {
  const parsed = credentialIdSchema.safeParse(params.id);
  if (!parsed.success) throw new NotFoundError(`Credential ${params.id} was not found.`);
  const projectId = await getCredentialProjectId(db, parsed.data);
  // A credential of a project the caller cannot see is reported exactly like a missing one.
  const access = await authorizeProject(db, actor, projectId, "credential.write").catch((error) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`Credential ${params.id} was not found.`);
    throw error;
  });
  return json(await revokeCredential(db, actor, access, parsed.data));
});
