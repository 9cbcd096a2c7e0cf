import { UnauthorizedError } from "@/lib/errors";
import { defineRoute } from "@/lib/api/define-route";
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

// Runs a `reelbind` command for the CLI while this server owns the embedded database, and for the
// test fixtures on either database. Its authorization is the admin channel's secret, checked here
// before anything else: so the handler reads the body itself, after that check.
export const POST = defineRoute(
  {
    path: "/api/internal/cli",
    operationId: "runCliCommand",
    tag: "System",
    summary: "Runs a reelbind CLI command while this server holds the embedded database",
    access: "admin-channel",
    internal: true,
    responses: { 200: { description: "The command's result" } },
  },
  async ({ req }) => {
    const channel = readAdminChannel(getConfig().dataDir);
    const presented = req.headers.get(adminSecretHeader);
    if (!channel || channel.pid !== process.pid || !presented || !safeEqual(presented, channel.secret)) {
      throw new UnauthorizedError("The admin channel needs the secret from DATA_DIR.");
    }
    const command = await readJsonBody(req, cliCommand);
    return json(await runCommand(await getDb(), command));
  },
);
