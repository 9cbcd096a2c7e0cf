import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createCredentialRoute, GET as listCredentialsRoute } from "@/app/api/credentials/route";
import { AppError, toAppError, ValidationError } from "@/lib/errors";
import { verifyPassword } from "@/lib/auth/secrets";
import { getDb, type Db } from "@/lib/db";
import { lockFilePath } from "@/lib/db/data-dir-lock";
import { auditEvents, memberships, organizations, projects, users } from "@/lib/db/schema";
import { apiRequest, createTestProject, routeParams } from "@/testing/factories";
import { parseCommandLine } from "./command-line";
import { runCommand } from "./commands";

// (a) the commands themselves against the test database; (b) the real binary, once, end to end.

let db: Db;
let home: Awaited<ReturnType<typeof createTestProject>>;

beforeAll(async () => {
  db = await getDb();
  home = await createTestProject();
});

const run = (argv: string[]) => runCommand(db, parseCommandLine(argv));

const uniqueEmail = (label: string) => `cli-${label}-${randomUUID()}@test.example`;

async function createdUser(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user!;
}

const listCredentials = (token: string, projectId: string) =>
  listCredentialsRoute(apiRequest("GET", `/api/credentials?projectId=${projectId}`, { token }), routeParams({}));

describe("runCommand – organizations and projects", () => {
  it("org create --name → the stored organization", async () => {
    const org = (await run(["org", "create", "--name", "  Acme Films  "])) as { id: string; name: string };
    expect(org).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Acme Films" });
    const [row] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(row?.name).toBe("Acme Films");
  });

  it("project create --org --name → a project of that organization", async () => {
    const project = (await run(["project", "create", "--org", home.organization.id, "--name", "Spring campaign"])) as {
      id: string;
    };
    const [row] = await db.select().from(projects).where(eq(projects.id, project.id));
    expect(row).toMatchObject({ organizationId: home.organization.id, name: "Spring campaign" });
  });

  it("project create --org <unknown organization> → NotFoundError 404", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    await expect(run(["project", "create", "--org", missing, "--name", "x"])).rejects.toMatchObject({
      kind: "not_found",
      message: expect.stringContaining(missing),
    });
  });
});

describe("runCommand – users", () => {
  it("user create --email without --password → a generated password that verifies against the stored hash", async () => {
    const email = uniqueEmail("generated");
    const result = (await run(["user", "create", "--email", email])) as Record<string, unknown>;
    expect(result).toMatchObject({ email, password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(result).not.toHaveProperty("passwordHash");

    const stored = await createdUser(email);
    expect(stored.id).toBe(result.id);
    expect(await verifyPassword(result.password as string, stored.passwordHash!)).toBe(true);
    expect(await verifyPassword("not the password", stored.passwordHash!)).toBe(false);
  });

  it("user create twice without --password → two different generated passwords", async () => {
    const first = (await run(["user", "create", "--email", uniqueEmail("a")])) as { password: string };
    const second = (await run(["user", "create", "--email", uniqueEmail("b")])) as { password: string };
    expect(first.password).not.toBe(second.password);
  });

  it("user create --email E --password P --name N → stored, and the password is not echoed", async () => {
    const email = uniqueEmail("given");
    const result = (await run(["user", "create", "--email", email.toUpperCase(), "--password", "s3cret-enough", "--name", "Ada"])) as Record<
      string,
      unknown
    >;
    expect(result).toMatchObject({ email, name: "Ada" });
    expect(result).not.toHaveProperty("password");
    expect(await verifyPassword("s3cret-enough", (await createdUser(email)).passwordHash!)).toBe(true);
  });

  it("user create with an email that exists in another case → a unique violation mapped to 409", async () => {
    const email = uniqueEmail("twice");
    await run(["user", "create", "--email", email]);
    const error = await run(["user", "create", "--email", email.toUpperCase()]).catch((e: unknown) => e);
    expect(toAppError(error).kind).toBe("conflict");
  });
});

describe("runCommand – members and tokens", () => {
  it("member add --user <email> --project --role Editor, then again with another role → one membership, role updated", async () => {
    const email = uniqueEmail("member");
    await run(["user", "create", "--email", email]);
    const member = ["member", "add", "--user", email.toUpperCase(), "--project", home.project.id, "--role"];

    const first = (await run([...member, "Editor"])) as { id: string; role: string };
    const second = (await run([...member, "Viewer"])) as { id: string; role: string };
    expect(first.role).toBe("Editor");
    expect(second).toMatchObject({ id: first.id, role: "Viewer" });

    const rows = await db.select().from(memberships).where(eq(memberships.userId, (await createdUser(email)).id));
    expect(rows).toEqual([expect.objectContaining({ projectId: home.project.id, organizationId: null, role: "Viewer" })]);
  });

  it("member add --org and --project for one user → two memberships side by side", async () => {
    const email = uniqueEmail("both-scopes");
    const user = (await run(["user", "create", "--email", email])) as { id: string };
    await run(["member", "add", "--user", user.id, "--project", home.project.id, "--role", "Editor"]);
    await run(["member", "add", "--user", user.id, "--org", home.organization.id, "--role", "Viewer"]);
    const rows = await db.select().from(memberships).where(eq(memberships.userId, user.id));
    expect(rows.map((r) => [r.organizationId, r.projectId, r.role]).sort()).toEqual(
      [
        [home.organization.id, null, "Viewer"],
        [null, home.project.id, "Editor"],
      ].sort(),
    );
  });

  it("token create --user <email> → an rbk_ token; GET /api/credentials follows the member's role", async () => {
    const email = uniqueEmail("token");
    await run(["user", "create", "--email", email]);
    await run(["member", "add", "--user", email, "--project", home.project.id, "--role", "Editor"]);

    const created = (await run(["token", "create", "--user", email, "--name", "laptop"])) as Record<string, unknown>;
    expect(created).toMatchObject({ token: expect.stringMatching(/^rbk_[A-Za-z0-9_-]{32}$/), name: "laptop" });
    const token = created.token as string;

    expect((await listCredentials(token, home.project.id)).status).toBe(403);
    await run(["member", "add", "--user", email, "--project", home.project.id, "--role", "ProjectManager"]);
    const response = await listCredentials(token, home.project.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: expect.any(Array) });
  });

  it("token create --scopes read → a read-only token: GET /api/credentials 200, POST /api/credentials 403 naming the scope", async () => {
    const email = uniqueEmail("read-only");
    await run(["user", "create", "--email", email]);
    await run(["member", "add", "--user", email, "--project", home.project.id, "--role", "ProjectManager"]);
    const created = (await run(["token", "create", "--user", email, "--scopes", "read"])) as { token: string; scopes: string[] };
    expect(created.scopes).toEqual(["read"]);
    expect((await listCredentials(created.token, home.project.id)).status).toBe(200);
    const refused = await createCredentialRoute(apiRequest("POST", "/api/credentials", { token: created.token, body: { projectId: home.project.id } }), routeParams({}));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/read-only/);
    const everything = (await run(["token", "create", "--user", email])) as { scopes: string[] };
    expect(everything.scopes).toContain("credentials:write");
  });

  it("member remove / member add of an organization's last OrganizationAdmin → 409 as in the API; with a second admin the removal goes, with its audit row", async () => {
    const org = (await run(["org", "create", "--name", `Last admin ${randomUUID()}`])) as { id: string };
    const [first, second] = [uniqueEmail("admin-a"), uniqueEmail("admin-b")];
    for (const email of [first, second]) await run(["user", "create", "--email", email]);
    await run(["member", "add", "--user", first, "--org", org.id, "--role", "OrganizationAdmin"]);
    const lastAdmin = { kind: "conflict", message: expect.stringContaining(`${first} is the organization's last OrganizationAdmin`) };
    await expect(run(["member", "remove", "--user", first, "--org", org.id])).rejects.toMatchObject(lastAdmin);
    await expect(run(["member", "add", "--user", first, "--org", org.id, "--role", "Viewer"])).rejects.toMatchObject(lastAdmin);
    const orgMembers = () => db.select({ userId: memberships.userId, role: memberships.role }).from(memberships).where(eq(memberships.organizationId, org.id));
    expect(await orgMembers()).toEqual([{ userId: (await createdUser(first)).id, role: "OrganizationAdmin" }]);

    await run(["member", "add", "--user", second, "--org", org.id, "--role", "OrganizationAdmin"]);
    const removed = (await run(["member", "remove", "--user", first, "--org", org.id])) as { id: string };
    expect(await orgMembers()).toEqual([{ userId: (await createdUser(second)).id, role: "OrganizationAdmin" }]);
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.targetId, removed.id));
    expect(audit).toEqual([
      expect.objectContaining({ organizationId: org.id, projectId: null, actorUserId: null, action: "member.removed", data: { email: first, role: "OrganizationAdmin" } }),
    ]);
  });

  it("member add / token create --user <unknown email> → NotFoundError 404", async () => {
    const unknown = uniqueEmail("nobody");
    await expect(run(["member", "add", "--user", unknown, "--project", home.project.id, "--role", "Viewer"])).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(run(["token", "create", "--user", unknown])).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("runCommand – the operator's changes in the organizations' trails", () => {
  const trailOf = (organizationId: string, targetId: string) =>
    db
      .select({ action: auditEvents.action, actorUserId: auditEvents.actorUserId, projectId: auditEvents.projectId, data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.targetId, targetId)))
      .orderBy(asc(auditEvents.seq));

  it("org create → its trail starts with organization.created, with no actor (the operator)", async () => {
    const org = (await run(["org", "create", "--name", "Trail org"])) as { id: string };
    expect(await trailOf(org.id, org.id)).toEqual([{ action: "organization.created", actorUserId: null, projectId: null, data: { name: "Trail org" } }]);
  });

  it("user set-password, token create, user disable twice → one row each in the trail of every organization the user is in; none for user create", async () => {
    const email = uniqueEmail("trail");
    const user = (await run(["user", "create", "--email", email])) as { id: string };
    const other = (await run(["org", "create", "--name", "Other trail org"])) as { id: string };
    await run(["member", "add", "--user", email, "--project", home.project.id, "--role", "Editor"]);
    await run(["member", "add", "--user", email, "--org", other.id, "--role", "Viewer"]);
    await run(["user", "set-password", "--user", email]);
    const token = (await run(["token", "create", "--user", email, "--name", "ci", "--scopes", "read"])) as { id: string };
    await run(["user", "disable", "--user", email]);
    await run(["user", "disable", "--user", email]);

    const expected = [
      { action: "user.password_set", actorUserId: null, projectId: null, data: { email } },
      { action: "user.token_created", actorUserId: null, projectId: null, data: { email, tokenId: token.id, name: "ci", scopes: ["read"] } },
      { action: "user.disabled", actorUserId: null, projectId: null, data: { email } },
    ];
    expect(await trailOf(home.organization.id, user.id)).toEqual(expected);
    expect(await trailOf(other.id, user.id)).toEqual(expected);
  });
});

describe("runCommand – db row-counts", () => {
  it("db row-counts → every table of the schema with its row count; an organization created in between adds one row", async () => {
    const before = (await run(["db", "row-counts"])) as Record<string, number>;
    expect(Object.keys(before)).toEqual(
      [
        "analytics_daily_rollups", "analytics_events", "analytics_hourly_rollups", "analytics_quarantine_counts", "analytics_quarantine_samples", "analytics_rollup_cursors", "api_credentials", "audit_events",
        "campaign_imports", "campaign_recipients", "campaigns", "channel_pins", "console_sessions", "idempotency_keys", "member_invitations", "memberships", "organization_sso", "organizations", "password_resets", "personal_access_tokens", "projects", "public_video_shares",
        "rate_limits", "recipient_posters", "renders", "share_slugs", "share_variants", "template_files", "template_upload_sessions", "templates", "two_factor_recovery_codes", "user_two_factor", "users", "webhook_deliveries", "webhook_endpoints", "webhook_signing_keys",
      ],
    );
    await run(["org", "create", "--name", `Counted ${randomUUID()}`]);
    const after = (await run(["db", "row-counts"])) as Record<string, number>;
    expect(after.organizations).toBe(before.organizations! + 1);
  });
});

describe("parseCommandLine + runCommand – invalid command lines → ValidationError 422", () => {
  const email = uniqueEmail("invalid");
  beforeAll(async () => {
    await run(["user", "create", "--email", email]);
  });

  it.each([
    { name: "unknown command", argv: ["bogus"], path: "command" },
    { name: "no command", argv: [], path: "command" },
    { name: "extra positional", argv: ["org", "create", "extra", "--name", "x"], path: "command" },
    { name: "org create without --name", argv: ["org", "create"], path: "name" },
    { name: "--name without a value", argv: ["org", "create", "--name"], path: "" },
    { name: "unknown option", argv: ["org", "create", "--name", "x", "--colour", "red"], path: "" },
    { name: "project create without --org", argv: ["project", "create", "--name", "x"], path: "org" },
    { name: "project create --org not a UUID", argv: ["project", "create", "--org", "acme", "--name", "x"], path: "organizationId" },
    { name: "user create without --email", argv: ["user", "create"], path: "email" },
    { name: "user create --email not an email", argv: ["user", "create", "--email", "nobody"], path: "email" },
    { name: "user create --password too short", argv: ["user", "create", "--email", "x@test.example", "--password", "short"], path: "password" },
    { name: "member add without --role", argv: ["member", "add", "--user", "EMAIL", "--project", "PROJECT"], path: "role" },
    { name: "member add with an invalid role", argv: ["member", "add", "--user", "EMAIL", "--project", "PROJECT", "--role", "Owner"], path: "role" },
    { name: "member add with neither --org nor --project", argv: ["member", "add", "--user", "EMAIL", "--role", "Editor"], path: "" },
    {
      name: "member add with both --org and --project",
      argv: ["member", "add", "--user", "EMAIL", "--org", "ORG", "--project", "PROJECT", "--role", "Editor"],
      path: "",
    },
    { name: "token create without --user", argv: ["token", "create"], path: "user" },
    { name: "token create with an unknown scope", argv: ["token", "create", "--user", "EMAIL", "--scopes", "read,everything"], path: "scopes.1" },
  ])("$name → 422 at path '$path'", async ({ argv, path: errorPath }) => {
    const filled = argv.map((arg) =>
      arg === "EMAIL" ? email : arg === "PROJECT" ? home.project.id : arg === "ORG" ? home.organization.id : arg,
    );
    const error = await Promise.resolve()
      .then(() => run(filled))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as AppError).kind).toBe("validation_failed");
    expect((error as AppError).errors?.map((e) => e.path)).toEqual([errorPath]);
  });
});

describe("bin/reelbind.mjs – end to end", () => {
  type Run = { exitCode: number; stdout: string; stderr: string };

  const tempDirs: string[] = [];
  const binary = path.resolve("bin/reelbind.mjs");
  let created: Promise<Run>;
  let bogus: Promise<Run>;
  let createdDataDir: string;

  /** Runs the CLI in a child process with its own DATA_DIR, so it never touches this process's database. */
  function runBinary(args: string[]): { dataDir: string; done: Promise<Run> } {
    const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-cli-"));
    tempDirs.push(dataDir);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    const done = new Promise<Run>((resolve) => {
      execFile(process.execPath, [binary, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ exitCode, stdout, stderr });
      });
    });
    return { dataDir, done };
  }

  // Both children start at once: each opens its own embedded database, which takes a while.
  beforeAll(() => {
    const createRun = runBinary(["org", "create", "--name", "Spawned org"]);
    createdDataDir = createRun.dataDir;
    created = createRun.done;
    bogus = runBinary(["bogus"]).done;
  });

  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("reelbind org create --name → exit 0, the organization as JSON on stdout", async () => {
    const { exitCode, stdout, stderr } = await created;
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: "" });
    const org = JSON.parse(stdout) as { id: string; name: string };
    expect(org).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Spawned org" });

    if (process.env.DATABASE_URL) {
      const [row] = await db.select().from(organizations).where(eq(organizations.id, org.id));
      expect(row?.name).toBe("Spawned org");
    } else {
      expect(existsSync(path.join(createdDataDir, "pglite"))).toBe(true);
      expect(existsSync(lockFilePath(createdDataDir))).toBe(false);
    }
  });

  it("reelbind bogus → exit 1, a JSON error on stderr and nothing on stdout", async () => {
    const { exitCode, stdout, stderr } = await bogus;
    expect({ exitCode, stdout }).toEqual({ exitCode: 1, stdout: "" });
    expect(JSON.parse(stderr)).toMatchObject({
      code: "validation_failed",
      error: expect.stringContaining("unknown command 'bogus'"),
    });
  });
});
