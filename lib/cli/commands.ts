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
import { ValidationError } from "@/lib/errors";
import { generatePassword } from "@/lib/auth/secrets";
import { bootstrapDemo } from "@/lib/bootstrap/bootstrap";
import type { Db } from "@/lib/db";
import { countRowsPerTable } from "@/lib/db/row-counts";
import { usage, type CliCommand } from "./command-line";

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
      const scopes = options.scopes?.split(",").map((scope) => scope.trim());
      return createPersonalAccessToken(db, { userId, name: options.name, scopes });
    }
    case "db row-counts":
      return countRowsPerTable(db);
    case "bootstrap":
      return bootstrapDemo(db);
    default:
      throw new ValidationError([{ path: "command", message: `unknown command '${command}'\n\n${usage}` }]);
  }
}
