import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { credentialSchema } from "@/lib/credentials/contract";
import { authorizeCredential, revokeCredential } from "@/lib/credentials/credentials";

export const POST = defineRoute(
  {
    path: "/api/credentials/{id}/revoke",
    operationId: "revokeCredential",
    tag: "Credentials",
    summary: "Revoke an API credential (idempotent)",
    access: { project: "credential.write", checkedBy: "handler" },
    responses: { 200: { description: "The revoked credential", schema: credentialSchema } },
  },
  async ({ params, actor, db, action }) => {
    const access = await authorizeCredential(db, actor, params.id, action);
    return json(await revokeCredential({ db, actor, access }, params.id));
  },
);
