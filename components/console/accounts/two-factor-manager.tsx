"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { Field, inputClass } from "@/components/console/field";
import { ApiProblem } from "@/lib/console/api-client";
import { useConfirmTwoFactor, useDisableTwoFactor, useStartTwoFactorEnrolment } from "@/lib/console/hooks/two-factor";

// /account/security: set up two-factor (QR code → a confirming code → recovery codes shown
// once), or turn it off with a code or the password (docs/adr/0156-two-factor-totp.md).

type Props = { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number };

const problemText = (error: unknown) => (error instanceof ApiProblem ? error.message : "Something went wrong. Try again.");

export function TwoFactorManager({ enabled, enabledAt, recoveryCodesLeft }: Props) {
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} />;
  if (enabled) return <TwoFactorOn enabledAt={enabledAt} recoveryCodesLeft={recoveryCodesLeft} />;
  return <Enrolment onEnabled={setRecoveryCodes} />;
}

function Enrolment({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const start = useStartTwoFactorEnrolment();
  const confirm = useConfirmTwoFactor();
  const [code, setCode] = useState("");
  const enrolment = start.data;

  if (!enrolment) {
    return (
      <div className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <p className="text-sm text-slate-700">
          Two-factor authentication is <strong>off</strong>. Once on, signing in with your password also asks for a 6-digit code from an authenticator app
          (Google Authenticator, 1Password, Authy…).
        </p>
        {start.error ? (
          <p role="alert" className="text-sm text-red-700">
            {problemText(start.error)}
          </p>
        ) : null}
        <Button intent="primary" busy={start.isPending} onClick={() => start.mutate()}>
          Set up two-factor
        </Button>
      </div>
    );
  }

  const fieldError = confirm.error instanceof ApiProblem ? (confirm.error.fieldError("code") ?? confirm.error.message) : confirm.error ? problemText(confirm.error) : null;
  return (
    <div className="space-y-6 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <section aria-labelledby="scan-step" className="flex flex-col gap-4 sm:flex-row sm:items-start">
        {/* A data URL the server drew: next/image adds nothing here. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={enrolment.qrCode} width={200} height={200} alt="QR code for your authenticator app" data-testid="two-factor-qr" className="block h-auto w-48 shrink-0 self-center rounded ring-1 ring-slate-200 sm:w-52 sm:self-start" />
        <div className="min-w-0 space-y-2">
          <h2 id="scan-step" className="font-medium text-slate-900">
            1. Scan the QR code with your authenticator app
          </h2>
          <p className="text-sm text-slate-600">Can’t scan it? Add an account by hand with this key (time-based, 6 digits, every 30 seconds):</p>
          <div className="flex flex-wrap items-center gap-2">
            <code data-testid="two-factor-secret" className="break-all rounded bg-slate-50 px-2 py-1 font-mono text-sm ring-1 ring-slate-200">
              {enrolment.secret}
            </code>
            <CopyButton value={enrolment.secret} label="Copy key" />
          </div>
          <details className="text-sm text-slate-600">
            <summary className="cursor-pointer">Show the otpauth:// link</summary>
            <code data-testid="two-factor-uri" className="mt-1 block break-all rounded bg-slate-50 px-2 py-1 font-mono text-xs ring-1 ring-slate-200">
              {enrolment.otpauthUri}
            </code>
          </details>
        </div>
      </section>
      <form
        aria-labelledby="confirm-step"
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          confirm.mutate(code, { onSuccess: (result) => onEnabled(result.recoveryCodes) });
        }}
      >
        <h2 id="confirm-step" className="font-medium text-slate-900">
          2. Type the code the app shows
        </h2>
        <div className="max-w-xs">
          <Field label="Code" error={fieldError}>
            {(control) => (
              <input
                {...control}
                name="code"
                value={code}
                onChange={(event) => setCode(event.target.value)}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]{6,7}"
                required
                className={`${inputClass} font-mono tracking-widest`}
              />
            )}
          </Field>
        </div>
        <Button intent="primary" type="submit" busy={confirm.isPending}>
          Turn on two-factor
        </Button>
      </form>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const router = useRouter();
  return (
    <div className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <p className="font-medium text-emerald-800" role="status">
        Two-factor authentication is on.
      </p>
      <div className="space-y-3 rounded-md bg-amber-50 p-3 text-sm ring-1 ring-amber-200">
        <p className="font-medium text-amber-900">Your recovery codes: save them now, they are not shown again</p>
        <p className="text-amber-900">Each one signs you in once instead of a code, if you lose your phone.</p>
        <ul data-testid="recovery-codes" className="grid grid-cols-1 gap-1 font-mono text-base min-[360px]:grid-cols-2">
          {codes.map((code) => (
            <li key={code} className="rounded bg-white px-2 py-1 text-center ring-1 ring-slate-200">
              {code}
            </li>
          ))}
        </ul>
        <CopyButton value={codes.join("\n")} label="Copy all codes" />
      </div>
      <Button intent="primary" onClick={() => router.refresh()}>
        I have saved them
      </Button>
    </div>
  );
}

function TwoFactorOn({ enabledAt, recoveryCodesLeft }: { enabledAt: string | null; recoveryCodesLeft: number }) {
  const disable = useDisableTwoFactor();
  const [method, setMethod] = useState<"code" | "password">("code");
  const [value, setValue] = useState("");
  const error = disable.error instanceof ApiProblem ? (disable.error.fieldError(method) ?? disable.error.message) : disable.error ? problemText(disable.error) : null;
  return (
    <div className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <p className="text-sm text-slate-700" data-testid="two-factor-on">
        Two-factor authentication is <strong>on</strong>
        {enabledAt ? ` since ${new Date(enabledAt).toLocaleDateString("en", { dateStyle: "medium" })}` : ""}. {recoveryCodesLeft} of 10 recovery codes left.
      </p>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          disable.mutate(method === "code" ? { code: value } : { password: value });
        }}
      >
        <h2 className="font-medium text-slate-900">Turn off two-factor</h2>
        <div className="max-w-xs">
          <Field label={method === "code" ? "Current code or a recovery code" : "Your password"} error={error}>
            {(control) => (
              <input
                {...control}
                name={method}
                type={method === "password" ? "password" : "text"}
                value={value}
                onChange={(event) => setValue(event.target.value)}
                autoComplete={method === "password" ? "current-password" : "one-time-code"}
                required
                className={inputClass}
              />
            )}
          </Field>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button intent="danger" type="submit" busy={disable.isPending}>
            Turn off two-factor
          </Button>
          <button
            type="button"
            className="text-sm text-indigo-700 underline"
            onClick={() => {
              setMethod(method === "code" ? "password" : "code");
              setValue("");
              disable.reset();
            }}
          >
            {method === "code" ? "Use my password instead" : "Use a code instead"}
          </button>
        </div>
      </form>
    </div>
  );
}
