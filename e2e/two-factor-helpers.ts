import { expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { env } from "./owned-project";

// Two-factor in the browser specs: codes computed from the secret read off the enrolment page,
// as an authenticator app computes them (otpauth, SHA-1, 6 digits, 30 s).

/** The code of the step `at` falls in (an app's code now; now + 30 s: the next one, still inside the ±1 window). */
export const codeAt = (secret: string, at = Date.now()) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

/** A 6-digit code that is none of the window's (the previous, current and next step's). */
export function wrongCode(secret: string): string {
  const valid = new Set([-30_000, 0, 30_000, 60_000].map((offset) => codeAt(secret, Date.now() + offset)));
  for (let n = 0; ; n++) {
    const candidate = String((Number(codeAt(secret)) + 111_111 * (n + 1)) % 1_000_000).padStart(6, "0");
    if (!valid.has(candidate)) return candidate;
  }
}

/** Sets up two-factor on /account/security (the page open); returns the secret and the recovery codes. */
export async function enrolOnPage(page: Page, { screenshot }: { screenshot?: (name: string) => Promise<void> } = {}) {
  await page.getByRole("button", { name: "Set up two-factor" }).click();
  const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByTestId("two-factor-qr")).toBeVisible();
  await screenshot?.("two-factor-enrol");
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(wrongCode(secret));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByText("is not the current code of your authenticator app")).toBeVisible();
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(codeAt(secret));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  const list = page.getByTestId("recovery-codes");
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const recoveryCodes = (await list.getByRole("listitem").allTextContents()).map((code) => code.trim());
  await screenshot?.("two-factor-recovery-codes");
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page.getByTestId("two-factor-on")).toContainText("10 of 10 recovery codes left");
  return { secret, recoveryCodes };
}

/** Email and password through the form, up to the code step. */
export async function signInToCodeStep(page: Page, user: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible({ timeout: 60_000 });
}

/** Types a code at the code step: "in" lands on `landing`, "refused" stays with the form's message. */
export async function submitCode(page: Page, code: string, expected: "in" | "refused", landing = /\/projects/) {
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  if (expected === "in") await expect(page).toHaveURL(landing, { timeout: 60_000 });
  else await expect(page.locator("#sign-in-error")).toHaveText("That code is not right. Try the one your app shows now.");
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** What the browser adds to the console's own calls (cookie-authenticated writes must be same-origin). */
export const sameOrigin = () => ({ Origin: env("E2E_BASE_URL") });
