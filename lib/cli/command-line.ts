import { parseArgs } from "node:util";
import { ValidationError } from "@/lib/errors";

// The CLI's command line, apart from what runs it (commands.ts): light enough for the e2e
// fixtures, which send the same commands to a server's admin channel.

export const usage = `Usage: reelbind <command> [options]   (every command prints JSON)

  org create --name N
  project create --org ORG --name N
  user create --email E [--password P] [--name N]
  user set-password --user U [--password P]     (generates and prints one when omitted; ends the user's console sessions)
  user disable --user U                         (no sign-in; console sessions and tokens stop working)
  user reset-two-factor --user U                (turns two-factor off: a lost phone and lost recovery codes; ends console sessions)
  member add --user U (--org ORG | --project P) --role Viewer|Editor|ProjectManager|OrganizationAdmin
                                                (at once, no invitation: the operator is trusted)
  member remove --user U (--org ORG | --project P)   (ends the user's console sessions)
  token create --user U [--name N] [--scopes read,templates:write,…]   (default: every scope)
  db row-counts                                 (rows per table: to compare a restore with its backup)
  bootstrap

U is a user id or email. With DATABASE_URL the CLI connects to PostgreSQL directly; on the
embedded database it sends the command to the running server, or opens DATA_DIR itself.`;

const optionSpec = {
  name: { type: "string" },
  org: { type: "string" },
  project: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  user: { type: "string" },
  role: { type: "string" },
  scopes: { type: "string" },
} as const;

const commands = [
  "org create",
  "project create",
  "user create",
  "user set-password",
  "user disable",
  "user reset-two-factor",
  "member add",
  "member remove",
  "token create",
  "db row-counts",
  "bootstrap",
];

/** A parsed command line, plain JSON so it can travel to a running server unchanged. */
export type CliCommand = { command: string; options: Record<string, string | undefined> };

export function parseCommandLine(argv: string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: optionSpec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ValidationError([{ path: "", message: (error as Error).message }]);
  }
  const command = parsed.positionals.join(" ");
  if (!commands.includes(command)) {
    throw new ValidationError([{ path: "command", message: `unknown command '${command}'\n\n${usage}` }]);
  }
  return { command, options: parsed.values as Record<string, string | undefined> };
}

