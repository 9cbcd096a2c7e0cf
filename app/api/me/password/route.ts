import { changedPasswordSchema, changePasswordBody } from "@/lib/accounts/contract";
import { changeOwnPassword } from "@/lib/accounts/own-account";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { clientAddress } from "@/lib/client-address";

export const PUT = defineRoute(
  {
    path: "/api/me/password",
    operationId: "changeMyPassword",
    tag: "Account",
    summary: "Change the caller's password (console session only); the caller's other console sessions end",
    access: "console-session",
    body: changePasswordBody,
    responses: { 200: { description: "Changed", schema: changedPasswordSchema } },
  },
  async (ctx) => json(await changeOwnPassword(ctx, { ...ctx.body, address: clientAddress(ctx.req.headers) })),
);
