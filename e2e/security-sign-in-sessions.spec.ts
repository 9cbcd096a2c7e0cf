import { expect, test } from "@playwright/test";
import { env, runCli } from "./owned-project";
import { cli, createUserWithPassword, ownAddress, signInOverHttp } from "./sign-in-helpers";

// Bounds, not expectations: each CLI call (180 s) and request (30 s) is bounded too; the machine may be loaded.
// The "reelbind …" tests run the real CLI (runCli), whose behaviour is their subject; their accounts
// are made through the admin channel (cli).
test.describe.configure({ timeout: 300_000 });

// Finding 4: signing out only deleted the cookie in the browser; a copy of it kept working for
// 12 h. Now every use of the cookie checks its console_sessions row, which sign-out, a password
// change, disabling the user and removing a membership revoke.

type Member = Awaited<ReturnType<typeof createUserWithPassword>>;

const base = () => env("E2E_BASE_URL");

/** What the cookie opens: the management API (a project the user is a Viewer of) and a console page. */
async function whatTheCookieOpens(cookie: string, projectId: string) {
  const api = await fetch(`${base()}/api/Projects/${projectId}/public-video-shares`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) });
  const page = await fetch(`${base()}/projects`, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(30_000) });
  return { api: api.status, page: page.status, pageLocation: page.headers.get("location") };
}

async function expectOpen(cookie: string, projectId: string) {
  expect(await whatTheCookieOpens(cookie, projectId)).toEqual({ api: 200, page: 200, pageLocation: null });
}

async function expectEnded(cookie: string, projectId: string) {
  const opened = await whatTheCookieOpens(cookie, projectId);
  expect(opened.api).toBe(401);
  expect(opened.page).toBeGreaterThanOrEqual(300);
  expect(opened.page).toBeLessThan(400);
  expect(new URL(opened.pageLocation!, base()).pathname).toBe("/login");
}

async function signedInCookie(member: Member): Promise<string> {
  const result = await signInOverHttp({ email: member.email, password: member.password, address: ownAddress() });
  expect(result.status).toBe(200);
  return result.sessionCookie!;
}

test("Sign out in the console – a copy of the cookie taken before gets 401 on the API and /login on console pages", async ({ page, context }) => {
  const member = await createUserWithPassword("sessions-sign-out", "Viewer");
  await page.goto("/login");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects/);
  const session = (await context.cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session).toBeDefined();
  const copy = `${session!.name}=${session!.value}`;
  await expectOpen(copy, member.projectId!);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expectEnded(copy, member.projectId!);

  // The browser itself, given the old cookie back, lands on the sign-in page.
  await context.addCookies([session!]);
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/login/);
});

test("Sign out – only that session ends; the user's other sessions keep working", async ({ page, context }) => {
  const member = await createUserWithPassword("sessions-other", "Viewer");
  const other = await signedInCookie(member);
  await page.goto("/login");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await context.cookies()).some((c) => c.name.endsWith("next-auth.session-token"))).toBe(false);
  await expectOpen(other, member.projectId!);
});

const endings: { name: string; run: (member: Member) => Promise<unknown>; canSignInAgain: boolean }[] = [
  { name: "reelbind user set-password", run: (m) => runCli("user", "set-password", "--user", m.email, "--password", `new-${m.password}`), canSignInAgain: false },
  { name: "reelbind user disable", run: (m) => runCli("user", "disable", "--user", m.id), canSignInAgain: false },
  { name: "reelbind member remove --project", run: (m) => runCli("member", "remove", "--user", m.email, "--project", m.projectId!), canSignInAgain: true },
];

for (const ending of endings) {
  test(`${ending.name} – every session of the user ends at once`, async () => {
    const [member, bystander] = await Promise.all([
      createUserWithPassword(`sessions-${ending.name.split(" ").slice(1, 3).join("-")}`, "Viewer"),
      createUserWithPassword("sessions-bystander", "Viewer"),
    ]);
    const [first, second, bystanderCookie] = await Promise.all([signedInCookie(member), signedInCookie(member), signedInCookie(bystander)]);
    await expectOpen(first, member.projectId!);

    await ending.run(member);

    await expectEnded(first, member.projectId!);
    await expectEnded(second, member.projectId!);
    await expectOpen(bystanderCookie, bystander.projectId!);
    // The old password no longer signs in after set-password or disable.
    const again = await signInOverHttp({ email: member.email, password: member.password, address: ownAddress() });
    expect(again.status).toBe(ending.canSignInAgain ? 200 : 401);
  });
}

test("reelbind member remove --org – ends the sessions of a user removed from the organization", async () => {
  const member = await createUserWithPassword("sessions-org-remove", "Viewer");
  await cli("member", "add", "--user", member.email, "--org", member.orgId!, "--role", "Viewer");
  const cookie = await signedInCookie(member);
  await expectOpen(cookie, member.projectId!);
  await runCli("member", "remove", "--user", member.email, "--org", member.orgId!);
  await expectEnded(cookie, member.projectId!);
});

test("reelbind user disable – the user's API tokens stop working too", async () => {
  const member = await createUserWithPassword("sessions-disable-token", "Viewer");
  const { token } = await cli<{ token: string }>("token", "create", "--user", member.email);
  const call = () => fetch(`${base()}/api/Projects/${member.projectId}/public-video-shares`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  expect((await call()).status).toBe(200);
  await runCli("user", "disable", "--user", member.email);
  expect((await call()).status).toBe(401);
});

const cliErrors: { name: string; args: (m: Member) => string[] }[] = [
  { name: "member remove without a scope", args: (m) => ["member", "remove", "--user", m.email] },
  { name: "member remove with both scopes", args: (m) => ["member", "remove", "--user", m.email, "--org", m.orgId!, "--project", m.projectId!] },
  { name: "member remove of a membership that does not exist", args: (m) => ["member", "remove", "--user", m.email, "--org", m.orgId!] },
  { name: "set-password too short", args: (m) => ["user", "set-password", "--user", m.email, "--password", "short"] },
  { name: "disable an unknown user", args: () => ["user", "disable", "--user", "nobody-at-all@example.com"] },
];

test("reelbind user/member commands – bad input fails with a message and changes nothing", async () => {
  const member = await createUserWithPassword("sessions-cli-errors", "Viewer");
  const cookie = await signedInCookie(member);
  await Promise.all(cliErrors.map((c) => expect(runCli(...c.args(member)), c.name).rejects.toThrow()));
  await expectOpen(cookie, member.projectId!);
});
