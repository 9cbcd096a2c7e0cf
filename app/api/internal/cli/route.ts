import { UnauthorizedError } from "@/lib/errors";
import { withPublic } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { safeEqual } from "@/lib/auth/secrets";
import { adminSecretHeader, readAdminChannel } from "@/lib/cli/admin-channel";
import { runCommand } from "@/lib/cli/commands";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { z } from "zod";

const cliCommand = z.strictObject({
  command: z.string().max(100),
  options: z.record(z.string(), z.string().max(1000).optional()),
});

// POST /api/internal/cli – runs a `reelbind` command for the CLI while this server owns the embedded database, and for the test fixtures on either database
// (withPublic: its authorization is the admin channel's secret, checked here before anything else)
export const POST = withPublic(async ({ req }) => {
  const channel = readAdminChannel(getConfig().dataDir);
  const presented = req.headers.get(adminSecretHeader);
  if (!channel || channel.pid !== process.pid || !presented || !safeEqual(presented, channel.secret)) {
    throw new UnauthorizedError("The admin channel needs the secret from DATA_DIR.");
  }
  const command = await readJsonBody(req, cliCommand);
  return json(await runCommand(await getDb(), command));
});
