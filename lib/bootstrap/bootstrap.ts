import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { findUserByEmail } from "@/lib/accounts/accounts";
import { createOrganization, createPersonalAccessToken, createUser } from "@/lib/accounts/operator";
import { addOrganizationMember, createOrganizationProject } from "@/lib/accounts/organizations";
import { sessionActor, type Actor } from "@/lib/auth/authenticate";
import { authorizeProject, type ProjectAccess } from "@/lib/auth/project-access";
import { generatePassword, sha256Hex, verifyPassword } from "@/lib/auth/secrets";
import { createCredential } from "@/lib/credentials/credentials";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { apiCredentials, memberships, organizations, personalAccessTokens, projects } from "@/lib/db/schema";
import { listShares, putShare } from "@/lib/shares/shares";
import { deployTemplate } from "@/lib/templates/lifecycle";
import { listTemplates } from "@/lib/templates/templates";
import { importTemplate } from "@/lib/templates/upload-template";
import { operatorContext } from "@/lib/services/operator-verbs";
import { systemOrganizationContext } from "@/lib/services/organization-verbs";

export const demoAdminEmail = "admin@demo.reelbind.local";
const demoOrganizationName = "Reelbind Demo";
const demoProjectName = "Demo project";

/** What a first run generated and nobody can read back from the database (it keeps hashes only). */
type BootstrapSecrets = { adminPassword?: string; adminToken?: string; apiSecret?: string };

function secretsFile(): string {
  return path.join(getConfig().dataDir, "bootstrap.json");
}

function readSecrets(): BootstrapSecrets {
  try {
    return JSON.parse(readFileSync(secretsFile(), "utf8")) as BootstrapSecrets;
  } catch {
    return {};
  }
}

function writeSecrets(secrets: BootstrapSecrets): void {
  mkdirSync(path.dirname(secretsFile()), { recursive: true });
  writeFileSync(secretsFile(), JSON.stringify(secrets, null, 2), { mode: 0o600 });
}

async function isLiveTokenOf(db: Db, userId: string, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const [row] = await db
    .select({ id: personalAccessTokens.id })
    .from(personalAccessTokens)
    .where(
      and(
        eq(personalAccessTokens.tokenHash, sha256Hex(token)),
        eq(personalAccessTokens.userId, userId),
        isNull(personalAccessTokens.revokedAt),
      ),
    );
  return Boolean(row);
}

/**
 * The demo shares, used only for a channel that has no share yet: PROD in en-US, and STAGING in
 * de-DE with the same raw data, so that a fresh install shows the player's German controls and
 * the template's formatted values ("3. März 2027", "24,00 $") next to the English ones.
 */
const demoData = { firstName: "Ana", planName: "Northwind Plus", renewalDate: "2027-03-03", amount: "24" };
const demoShares = {
  PROD: {
    publicTitle: "{{firstName|Hello}}, here is your plan at a glance",
    publicSubtitle: "A ten-second message from Northwind, made just for you.",
    locale: "en-US",
    ctaLabel: "Manage my plan",
    ctaUrl: "https://example.com/account",
    personalizationData: demoData,
    consentMode: "not_required" as const,
  },
  STAGING: {
    publicTitle: "{{firstName|Hallo}}, Ihr Tarif auf einen Blick",
    publicSubtitle: "Ihr Tarif verlängert sich am {{renewalDate}}.",
    locale: "de-DE",
    ctaLabel: "Meinen Tarif verwalten",
    ctaUrl: "https://example.com/account",
    personalizationData: demoData,
    consentMode: "not_required" as const,
  },
};

/** Reelbind's own demo template, made by scripts/make-demo-template.mjs: one folder per version. */
const demoTemplateDir = path.join(process.cwd(), "lib/bootstrap/demo-template");
const demoTemplates = {
  landscape: { name: "Welcome message", version: "1.0" },
  portrait: { name: "Welcome message (portrait)", version: "1.0" },
} as const;

async function importDemoTemplate(db: Db, actor: Actor, access: ProjectAccess, version: keyof typeof demoTemplates) {
  const file = (name: string) => new Uint8Array(readFileSync(path.join(demoTemplateDir, version, name)));
  return importTemplate(
    { db, actor, access },
    {
      fields: { ...demoTemplates[version], kind: "LottieStandalone" },
      files: [
        { role: "templateJson", name: "data.json", bytes: file("data.json") },
        { role: "manifestJson", name: "manifest.json", bytes: file("manifest.json") },
        { role: "assetFiles", name: "logo.png", bytes: file("images/logo.png") },
      ],
    },
  );
}

/**
 * Uploads the demo template's landscape version and deploys it, and uploads its portrait
 * version (left Testing, to try in the console), unless the project already has a Production template.
 */
async function ensureDemoTemplate(db: Db, actor: Actor, access: ProjectAccess) {
  const [production] = await listTemplates({ db, actor, access }, { status: "Production" });
  if (production) return production;
  const landscape = await importDemoTemplate(db, actor, access, "landscape");
  await importDemoTemplate(db, actor, access, "portrait");
  return deployTemplate({ db, actor, access }, landscape.id);
}

/**
 * Creates, once, a demo organization, project, admin user (with a printed password),
 * an admin token, an API credential, a PROD share (en-US) and a STAGING share (de-DE); later runs
 * find and return the same ones.
 */
export async function bootstrapDemo(db: Db, { adminEmail = demoAdminEmail } = {}) {
  const secrets = readSecrets();
  let admin = await findUserByEmail(db, adminEmail);
  if (!admin) {
    secrets.adminPassword = generatePassword();
    await createUser(operatorContext(db), { email: adminEmail, name: "Demo admin", password: secrets.adminPassword });
    admin = (await findUserByEmail(db, adminEmail))!;
  } else if (secrets.adminPassword && !(admin.passwordHash && (await verifyPassword(secrets.adminPassword, admin.passwordHash)))) {
    // The file belongs to another database (or the password was changed): do not print a wrong one.
    delete secrets.adminPassword;
  }

  const [existingOrg] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .innerJoin(memberships, eq(memberships.organizationId, organizations.id))
    .where(and(eq(memberships.userId, admin.id), eq(organizations.name, demoOrganizationName)))
    .limit(1);
  const organization = existingOrg ?? (await createOrganization(operatorContext(db), { name: demoOrganizationName }));
  const operator = await systemOrganizationContext(db, organization.id);
  await addOrganizationMember(operator, { userId: admin.id, role: "OrganizationAdmin" });

  const [existingProject] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organization.id), eq(projects.name, demoProjectName)))
    .limit(1);
  const project = existingProject ?? (await createOrganizationProject(operator, { name: demoProjectName }));

  if (!(await isLiveTokenOf(db, admin.id, secrets.adminToken))) {
    secrets.adminToken = (await createPersonalAccessToken(operatorContext(db), { userId: admin.id, name: "bootstrap" })).token;
  }

  const [existingCredential] = await db
    .select({ id: apiCredentials.id, apiKey: apiCredentials.apiKey, secretHash: apiCredentials.secretHash })
    .from(apiCredentials)
    .where(and(eq(apiCredentials.projectId, project.id), eq(apiCredentials.status, "active")))
    .limit(1);
  let credential = existingCredential && { id: existingCredential.id, apiKey: existingCredential.apiKey };
  if (existingCredential && secrets.apiSecret && sha256Hex(secrets.apiSecret) !== existingCredential.secretHash) {
    delete secrets.apiSecret;
  }
  const actor = sessionActor(admin);
  // The admin is the demo organization's OrganizationAdmin: the one way to a ProjectAccess.
  const access = await authorizeProject(db, actor, project.id, "credential.write");
  if (!credential) {
    const created = await createCredential({ db, actor, access }, { projectId: project.id, name: "Demo credential" });
    secrets.apiSecret = created.apiSecret;
    credential = { id: created.id, apiKey: created.apiKey };
  }

  const template = await ensureDemoTemplate(db, actor, access);
  const existingShares = await listShares({ db, actor, access });
  const demoShareOf = async (channel: keyof typeof demoShares) =>
    existingShares.find((s) => s.channel === channel) ??
    (await putShare({ db, actor, access }, { channel, ...demoShares[channel], apiCredentialId: credential.id })).share;
  const share = await demoShareOf("PROD");
  const germanShare = await demoShareOf("STAGING");

  writeSecrets(secrets);
  return {
    baseUrl: getConfig().publicBaseUrl,
    consoleUrl: `${getConfig().publicBaseUrl}/login`,
    organization: { id: organization.id, name: organization.name },
    project: { id: project.id, name: project.name },
    admin: { email: admin.email, password: secrets.adminPassword ?? null },
    token: secrets.adminToken!,
    apiCredential: { ...credential, apiSecret: secrets.apiSecret ?? null },
    template: { id: template.id, name: template.name, version: template.version, status: template.status },
    share: { channel: share.channel, url: share.url, status: share.status },
    stagingShare: { channel: germanShare.channel, url: germanShare.url, status: germanShare.status, locale: germanShare.locale },
  };
}

export type BootstrapResult = Awaited<ReturnType<typeof bootstrapDemo>>;

export function formatBootstrapBanner(result: BootstrapResult): string {
  const password = result.admin.password ?? "(set when this database was first bootstrapped)";
  return [
    "",
    "Reelbind is ready.",
    `  Base URL:     ${result.baseUrl}`,
    `  Console:      ${result.consoleUrl}`,
    `  Admin login:  ${result.admin.email}`,
    `  Password:     ${password}`,
    `  API token:    ${result.token}`,
    `  Organization: ${result.organization.name} (${result.organization.id})`,
    `  Project:      ${result.project.name} (${result.project.id})`,
    `  Template:     ${result.template.name} ${result.template.version} (${result.template.status}, ${result.template.id})`,
    `  PROD share:   ${result.share.url}${result.share.status === "Enabled" ? "" : " (disabled)"}`,
    `  STAGING share: ${result.stagingShare.url} (${result.stagingShare.locale ?? "no locale"})${result.stagingShare.status === "Enabled" ? "" : " (disabled)"}`,
    // The examples in the README and docs/api.md start from these variables.
    `  Shell:        export BASE=${result.baseUrl} TOKEN=${result.token} PROJECT=${result.project.id}`,
    `  Try:          curl -H "Authorization: Bearer $TOKEN" "$BASE/api/Projects/$PROJECT/public-video-shares"`,
    "",
  ].join("\n");
}
