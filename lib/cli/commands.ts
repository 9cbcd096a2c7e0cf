import { resolveUserId } from "@/lib/accounts/accounts";
import { createOrganization, createPersonalAccessToken, createUser, disableUser, resetUserTwoFactor, setUserPassword } from "@/lib/accounts/operator";
import { addMemberInput, createProjectInput, createTokenInput, createUserInput, removeMemberInput, setPasswordInput } from "@/lib/accounts/contract";
import { organizationOfProject } from "@/lib/accounts/organization-access";
import { addOrganizationMember, createOrganizationProject, findMembershipOf, removeOrganizationMember } from "@/lib/accounts/organizations";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { generatePassword } from "@/lib/auth/secrets";
import { bootstrapDemo } from "@/lib/bootstrap/bootstrap";
import type { Db } from "@/lib/db";
import { countRowsPerTable } from "@/lib/db/row-counts";
import { operatorContext as operator } from "@/lib/services/operator-verbs";
import { systemOrganizationContext } from "@/lib/services/organization-verbs";
import { parseInput } from "@/lib/validation/parse-input";
import { usage, type CliCommand } from "./command-line";

// The CLI runs as the operator (systemActor: no user, audit rows with no actor). It calls the
// same organization verbs as the API (member add, member remove and project create go through
// their guards, the last OrganizationAdmin's included, and write the same audit rows), and the
// operator's own verbs for what only it does (lib/accounts/operator.ts).

function required(options: CliCommand["options"], name: string): string {
  const value = options[name];
  if (!value) throw new ValidationError([{ path: name, message: `--${name} is required` }]);
  return value;
}

/** The operator's context on the organization named, or on the one the project belongs to. */
async function operatorContext(db: Db, scope: { organizationId?: string; projectId?: string }) {
  return systemOrganizationContext(db, scope.organizationId ?? (await organizationOfProject(db, scope.projectId!)));
}

export async function runCommand(db: Db, { command, options }: CliCommand): Promise<unknown> {
  switch (command) {
    case "org create":
      return createOrganization(operator(db), { name: required(options, "name") });
    case "project create": {
      const { organizationId, name } = parseInput(createProjectInput, { organizationId: required(options, "org"), name: required(options, "name") });
      return createOrganizationProject(await systemOrganizationContext(db, organizationId), { name });
    }
    case "user create": {
      const generated = options.password ? undefined : generatePassword();
      const password = options.password ?? generated;
      const user = await createUser(operator(db), parseInput(createUserInput, { email: required(options, "email"), name: options.name, password }));
      return generated ? { ...user, password: generated } : user;
    }
    case "user set-password": {
      const userId = await resolveUserId(db, required(options, "user"));
      const generated = options.password ? undefined : generatePassword();
      const user = await setUserPassword(operator(db), parseInput(setPasswordInput, { userId, password: options.password ?? generated }));
      return generated ? { ...user, password: generated } : user;
    }
    case "user disable":
      return disableUser(operator(db), { userId: await resolveUserId(db, required(options, "user")) });
    case "user reset-two-factor":
      return resetUserTwoFactor(operator(db), { userId: await resolveUserId(db, required(options, "user")) });
    case "member remove": {
      const userId = await resolveUserId(db, required(options, "user"));
      const member = parseInput(removeMemberInput, { userId, organizationId: options.org, projectId: options.project });
      const ctx = await operatorContext(db, member);
      const membership = await findMembershipOf(ctx, member);
      if (!membership) throw new NotFoundError(`User ${userId} has no membership on ${member.organizationId ?? member.projectId}.`);
      await removeOrganizationMember(ctx, membership.id);
      return membership;
    }
    case "member add": {
      const userId = await resolveUserId(db, required(options, "user"));
      const member = parseInput(addMemberInput, { userId, organizationId: options.org, projectId: options.project, role: required(options, "role") });
      return addOrganizationMember(await operatorContext(db, member), member);
    }
    case "token create": {
      const userId = await resolveUserId(db, required(options, "user"));
      const scopes = options.scopes?.split(",").map((scope) => scope.trim());
      return createPersonalAccessToken(operator(db), parseInput(createTokenInput, { userId, name: options.name, scopes }));
    }
    case "db row-counts":
      return countRowsPerTable(db);
    case "bootstrap":
      return bootstrapDemo(db);
    default:
      throw new ValidationError([{ path: "command", message: `unknown command '${command}'\n\n${usage}` }]);
  }
}
