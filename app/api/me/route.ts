import { describeMe } from "@/lib/accounts/organizations";
import { withActor } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";

// GET /api/me – the caller, their organizations and their projects with the role on each
export const GET = withActor(async (ctx) => json(await describeMe(ctx)));
