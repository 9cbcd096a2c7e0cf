import { withActor } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { authorizeCredential, revokeCredential } from "@/lib/credentials/credentials";

// POST /api/credentials/{id}/revoke – revoke a credential (idempotent)
export const POST = withActor<{ id: string }>(async ({ params, actor, db }) => {
  const access = await authorizeCredential(db, actor, params.id, "credential.write");
  return json(await revokeCredential({ db, actor, access }, params.id));
});
