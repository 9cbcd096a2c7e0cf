import { parseArgs } from "node:util";
import {
  addMember,
  createOrganization,
  createPersonalAccessToken,
  createProject,
  createUser,
  disableUser,
  removeMember,
  resolveUserId,
  setUserPassword,
} from "@/lib/accounts/accounts";
import { ValidationError } from "@/lib/api/errors";
import { generatePassword } from "@/lib/auth/secrets";
import { bootstrapDemo } from "@/lib/bootstrap/bootstrap";
import type { Db } from "@/lib/db";
import { countRowsPerTable } from "@/lib/db/row-counts";

export const usage = `Usage: reelbind <command> [options]   (every command prints JSON)

  org create --name N
  project create --org ORG --name N
  user create --email E [--password P] [--name N]
  user set-password --user U [--password P]     (generates and prints one when omitted; ends the user's console sessions)
  user disable --user U                         (no sign-in; console sessions and tokens stop working)
  member add --user U (--org ORG | --project P) --role Viewer|Editor|ProjectManager|OrganizationAdmin
  member remove --user U (--org ORG | --project P)   (ends the user's console sessions)
  token create --user U [--name N]
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
} as const;

const commands = [
  "org create",
  "project create",
  "user create",
  "user set-password",
  "user disable",
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

function required(options: CliCommand["options"], name: string): string {
  const value = options[name];
  if (!value) throw new ValidationError([{ path: name, message: `--${name} is required` }]);
  return value;
}

export async function runCommand(db: Db, { command, options }: CliCommand): Promise<unknown> {
  switch (command) {
    case "org create":
      return createOrganization(db, { name: required(options, "name") });
    case "project create":
      return createProject(db, { organizationId: required(options, "org"), name: required(options, "name") });
    case "user create": {
      const generated = options.password ? undefined : generatePassword();
      const password = options.password ?? generated;
      const user = await createUser(db, { email: required(options, "email"), name: options.name, password });
      return generated ? { ...user, password: generated } : user;
    }
    case "user set-password": {
      const userId = await resolveUserId(db, required(options, "user"));
      const generated = options.password ? undefined : generatePassword();
      const user = await setUserPassword(db, { userId, password: options.password ?? generated });
      return generated ? { ...user, password: generated } : user;
    }
    case "user disable":
      return disableUser(db, { userId: await resolveUserId(db, required(options, "user")) });
    case "member remove": {
      const userId = await resolveUserId(db, required(options, "user"));
      return removeMember(db, { userId, organizationId: options.org, projectId: options.project });
    }
    case "member add": {
      const userId = await resolveUserId(db, required(options, "user"));
      return addMember(db, { userId, organizationId: options.org, projectId: options.project, role: required(options, "role") });
    }
    case "token create": {
      const userId = await resolveUserId(db, required(options, "user"));
      return createPersonalAccessToken(db, { userId, name: options.name });
    }
    case "db row-counts":
      return countRowsPerTable(db);
    case "bootstrap":
      return bootstrapDemo(db);
    default:
      throw new ValidationError([{ path: "command", message: `unknown command '${command}'\n\n${usage}` }]);
  }
}
