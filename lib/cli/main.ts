import { kindOfHttpStatus } from "@/lib/api/errors";
import { AppError, toAppError, type FieldError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { readLockHolder } from "@/lib/db/data-dir-lock";
import { readAdminChannel, sendToAdminChannel } from "./admin-channel";
import { parseCommandLine, usage, type CliCommand } from "./command-line";

async function sendToRunningServer(command: CliCommand): Promise<unknown> {
  const { dataDir } = getConfig();
  const holder = readLockHolder(dataDir);
  const channel = readAdminChannel(dataDir);
  if (!channel || channel.pid !== holder) {
    throw new Error(
      `DATA_DIR ${dataDir} is in use by process ${holder}, which is not a Reelbind server accepting CLI commands. Stop it and try again.`,
    );
  }
  const response = await sendToAdminChannel(channel, command, 30_000);
  const body = (await response.json()) as { title?: string; detail?: string; code?: string; errors?: FieldError[] };
  if (!response.ok) {
    throw new AppError(kindOfHttpStatus(response.status), body.code ?? "remote_error", body.title ?? "Command failed", body.detail ?? response.statusText, body.errors);
  }
  return body;
}

async function execute(command: CliCommand): Promise<unknown> {
  const config = getConfig();
  // The embedded database belongs to one process; while the server holds it, ask the server.
  if (!config.databaseUrl && readLockHolder(config.dataDir) !== null) return sendToRunningServer(command);
  // Loaded only here: a command the running server answers starts without the database's packages.
  const [{ closeDb, getDb }, { runCommand }] = await Promise.all([import("@/lib/db"), import("./commands")]);
  try {
    return await runCommand(await getDb(), command);
  } finally {
    await closeDb();
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    console.log(usage);
    return argv.length === 0 ? 1 : 0;
  }
  try {
    const result = await execute(parseCommandLine(argv));
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    const appError = toAppError(error);
    const message = appError.kind === "internal" ? (error as Error).message : appError.message;
    console.error(JSON.stringify({ error: message, code: appError.code, errors: appError.errors }, null, 2));
    return 1;
  }
}
