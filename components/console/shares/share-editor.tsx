"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { ConfirmDialog } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { useProject } from "@/components/console/project-context";
import { RoleNote } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { usePutShare, useRotateSlug, useShares, useShareStatus, type Channel, type ShareJson } from "@/lib/console/hooks/shares";
import type { SharesPageData } from "@/lib/console/shares/load-shares";
import type { PreviewRecipient } from "@/lib/console/shares/preview-recipients";
import { refusalMessage, shareBody, shareDataProblems, trimmedCharacters, validateShareDraft, withDataKey, type ShareDraft } from "@/lib/console/shares/share-form";
import { shareTextLimits } from "@/lib/shares/share-rules";
import { EmbedSnippet } from "./embed-snippet";
import { ShareQr } from "./share-qr";
import { ShareStatusBadge, ShareTransition } from "./share-status";
import { TitlePreview } from "./title-preview";

type Props = SharesPageData & { projectId: string; channel: Channel; currentUserId: string; baseUrl: string; previewRecipients: PreviewRecipient[] };

const draftOf = (share: ShareJson | null, credentialId: string): ShareDraft => ({
  publicTitle: share?.publicTitle ?? "",
  publicSubtitle: share?.publicSubtitle ?? "",
  locale: share?.locale ?? "",
  ctaLabel: share?.ctaLabel ?? "",
  ctaUrl: share?.ctaUrl ?? "",
  personalizationData: share?.personalizationData ? JSON.stringify(share.personalizationData, null, 2) : "",
  consentMode: share?.consentMode ?? "not_required",
  apiCredentialId: share?.apiCredentialId ?? credentialId,
});

/** One channel's share: the form (ProjectManager and up), its link, QR code, status changes and embed code. */
export function ShareEditor({ projectId, channel, currentUserId, baseUrl, shares: initialShares, servedTemplates, credentials, people, previewRecipients }: Props) {
  const shares = useShares(projectId, initialShares);
  const share = (shares.data ?? initialShares).find((candidate) => candidate.channel === channel) ?? null;
  const template = servedTemplates[channel];
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <Link href={`/projects/${projectId}/shares`} className="text-sm text-indigo-700 underline">
            ← All shares
          </Link>
          <h1 className="mt-1 flex items-center gap-2 text-2xl font-semibold">
            {channel} share <ShareStatusBadge share={share} />
          </h1>
          {share ? <ShareTransition share={share} people={people} /> : null}
        </div>
      </div>
      {share ? <ShareLink projectId={projectId} channel={channel} share={share} currentUserId={currentUserId} /> : null}
      <section aria-labelledby="share-form-heading" className="rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <h2 id="share-form-heading" className="text-lg font-semibold">
          Landing page
        </h2>
        <ShareForm
          key={share?.updatedAt ?? "new"}
          projectId={projectId}
          channel={channel}
          share={share}
          template={template}
          credentials={credentials}
          previewRecipients={previewRecipients}
        />
      </section>
      {share ? (
        <section aria-labelledby="embed-heading" className="rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:p-6">
          <h2 id="embed-heading" className="mb-4 text-lg font-semibold">
            Embed on your site
          </h2>
          <EmbedSnippet baseUrl={baseUrl} slug={share.slug} channel={channel} data={share.personalizationData} />
        </section>
      ) : null}
    </div>
  );
}

function ShareLink({ projectId, channel, share, currentUserId }: { projectId: string; channel: Channel; share: ShareJson; currentUserId: string }) {
  const { roleReason } = useProject();
  const status = useShareStatus(projectId, channel, currentUserId);
  const rotate = useRotateSlug(projectId, channel);
  const toast = useToast();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const reason = roleReason("share.write");
  const disabled = share.status === "Disabled";
  return (
    <section aria-labelledby="link-heading" className="flex flex-col gap-6 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:flex-row sm:p-6">
      <div className="min-w-0 flex-1 space-y-3">
        <h2 id="link-heading" className="text-lg font-semibold">
          Link
        </h2>
        <p className="break-all font-mono text-sm" data-testid="share-url">
          {share.url}
        </p>
        <div className="flex flex-wrap gap-2">
          <CopyButton value={share.url} label="Copy link" />
          <a href={share.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50">
            Open landing page<span className="sr-only"> (new tab)</span>
          </a>
          <Button
            intent={disabled ? "primary" : "secondary"}
            disabledReason={reason}
            busy={status.isPending}
            onClick={() =>
              status.mutate(disabled ? "restore" : "disable", {
                onSuccess: (changed) => toast.success(changed.status === "Disabled" ? "The share is disabled: its link answers 404." : "The share is live again."),
                onError: (error) => toast.error(problemMessage(error)),
              })
            }
          >
            {disabled ? "Restore" : "Disable"}
          </Button>
          <Button intent="danger" disabledReason={reason} onClick={() => setConfirmRotate(true)}>
            Rotate link
          </Button>
        </div>
        {disabled ? <p className="text-sm text-red-800">Viewers of this link see “not found” until you restore it.</p> : null}
      </div>
      <ShareQr url={share.url} channel={channel} />
      <ConfirmDialog
        open={confirmRotate}
        onClose={() => {
          setConfirmRotate(false);
          rotate.reset();
        }}
        danger
        title={`Rotate the ${channel} link?`}
        description="The share gets a new link. The current one stops working at once, for everyone who has it, and is never issued again."
        confirmLabel="Rotate link"
        busy={rotate.isPending}
        error={rotate.error ? problemMessage(rotate.error) : null}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: () => {
              setConfirmRotate(false);
              toast.success("New link issued; the old one no longer works.");
            },
          })
        }
      />
    </section>
  );
}

type FormProps = {
  projectId: string;
  channel: Channel;
  share: ShareJson | null;
  template: SharesPageData["servedTemplates"][Channel];
  credentials: SharesPageData["credentials"];
  previewRecipients: PreviewRecipient[];
};

function ShareForm({ projectId, channel, share, template, credentials, previewRecipients }: FormProps) {
  const { roleReason } = useProject();
  const reason = roleReason("share.write");
  const active = credentials.filter((credential) => credential.status === "active");
  const [initial] = useState(() => draftOf(share, active[0]?.id ?? ""));
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState(false);
  const put = usePutShare(projectId, channel);
  const toast = useToast();
  const local = validateShareDraft(draft, template ?? null);
  // The live preview's warnings for this data, as the API will answer them on save.
  const dataWarnings = shareDataProblems(draft.personalizationData, template ?? null).filter((problem) => !problem.strict);
  const server = put.error instanceof ApiProblem ? put.error : null;
  // Checks show once the user has changed something (or tried to save), not on an empty new form.
  const dirty = touched || (Object.keys(initial) as (keyof ShareDraft)[]).some((key) => draft[key] !== initial[key]);
  // The server names a strict field's refusal by key (personalizationData.firstName): shown on the data's field.
  const serverDataRefusals = server?.errors.filter((error) => error.path.startsWith("personalizationData.")) ?? [];
  const serverError = (field: keyof ShareDraft) =>
    server?.fieldError(field) ??
    (field === "personalizationData" && serverDataRefusals.length > 0 && template
      ? refusalMessage(serverDataRefusals.map((error) => ({ message: error.message })), template)
      : undefined);
  const errorOf = (field: keyof ShareDraft) => (dirty ? local[field] : undefined) ?? serverError(field);
  const set = (field: keyof ShareDraft) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setDraft((current) => ({ ...current, [field]: event.target.value }));

  if (reason) {
    return (
      <div className="mt-4 space-y-3">
        <RoleNote>{reason} You can view this share but not change it.</RoleNote>
        {share ? (
          <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-slate-500">Title</dt>
            <dd>{share.publicTitle}</dd>
            <dt className="text-slate-500">Subtitle</dt>
            <dd>{share.publicSubtitle ?? "—"}</dd>
            <dt className="text-slate-500">Call to action</dt>
            <dd>{share.ctaLabel ? `${share.ctaLabel} → ${share.ctaUrl}` : "—"}</dd>
          </dl>
        ) : null}
      </div>
    );
  }

  return (
    <form
      noValidate
      className="mt-4 grid gap-5 lg:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (Object.keys(local).length > 0) return;
        put.mutate(shareBody(draft), {
          onSuccess: ({ warnings }) => {
            const saved = share ? "Share saved" : `The ${channel} share is live`;
            toast.success(
              warnings.length === 0
                ? `${saved}.`
                : `${saved}, with ${warnings.length === 1 ? "1 warning" : `${warnings.length} warnings`} about its personalization data: ${warnings.join("; ")}.`,
            );
          },
        });
      }}
    >
      <div className="space-y-4">
        <Field
          label="Title"
          hint="Greet each viewer with their data: {{firstName|there}} shows their firstName, or “there” when they have none."
          error={errorOf("publicTitle")}
          counter={`${trimmedCharacters(draft.publicTitle)} / ${shareTextLimits.publicTitle}`}>
          {(control) => <input {...control} className={inputClass} value={draft.publicTitle} onChange={set("publicTitle")} required />}
        </Field>
        <Field label="Subtitle" error={errorOf("publicSubtitle")} counter={`${trimmedCharacters(draft.publicSubtitle)} / ${shareTextLimits.publicSubtitle}`}>
          {(control) => <textarea {...control} rows={3} className={inputClass} value={draft.publicSubtitle} onChange={set("publicSubtitle")} />}
        </Field>
        <TitlePreview
          title={draft.publicTitle}
          subtitle={draft.publicSubtitle}
          ctaLabel={draft.ctaLabel}
          shareData={draft.personalizationData}
          recipients={previewRecipients}
        />
        <Field label="Locale" hint="Language of the page and player: language-REGION, e.g. en-US, de-DE or ar-EG." error={errorOf("locale")}>
          {(control) => <input {...control} className={inputClass} value={draft.locale} onChange={set("locale")} placeholder="en-US" />}
        </Field>
        <fieldset className="space-y-3 rounded-md p-3 ring-1 ring-slate-200">
          <legend className="px-1 text-sm font-medium">Call to action (optional)</legend>
          <Field label="Button label" error={errorOf("ctaLabel")}>
            {(control) => <input {...control} className={inputClass} value={draft.ctaLabel} onChange={set("ctaLabel")} placeholder="Book a demo" />}
          </Field>
          <Field label="Button link" hint="An http:// or https:// address." error={errorOf("ctaUrl")}>
            {(control) => <input {...control} type="url" className={inputClass} value={draft.ctaUrl} onChange={set("ctaUrl")} placeholder="https://example.com/book" />}
          </Field>
        </fieldset>
      </div>
      <div className="space-y-4">
        <Field
          label="API credential"
          hint={active.length ? "Views of this share count against this credential." : undefined}
          error={errorOf("apiCredentialId")}
        >
          {(control) =>
            active.length ? (
              <select {...control} className={inputClass} value={draft.apiCredentialId} onChange={set("apiCredentialId")}>
                {draft.apiCredentialId && !active.some((credential) => credential.id === draft.apiCredentialId) ? (
                  <option value={draft.apiCredentialId}>A revoked credential: pick an active one</option>
                ) : null}
                {active.map((credential) => (
                  <option key={credential.id} value={credential.id}>
                    {credential.name ? `${credential.name} (${credential.apiKey})` : credential.apiKey}
                  </option>
                ))}
              </select>
            ) : (
              <p {...control} className="text-sm text-amber-900">
                The project has no active API credential.{" "}
                <Link className="underline" href={`/projects/${projectId}/credentials`}>
                  Create one first
                </Link>
                .
              </p>
            )
          }
        </Field>
        <Field label="Consent" hint="Required: no analytics leave the page until the viewer accepts." error={errorOf("consentMode")}>
          {(control) => (
            <select {...control} className={inputClass} value={draft.consentMode} onChange={set("consentMode")}>
              <option value="not_required">Not required</option>
              <option value="required">Required (banner)</option>
            </select>
          )}
        </Field>
        <Field
          label="Personalization data (JSON)"
          hint={
            template?.fields.length ? (
              <span>
                Fields of {template.name} {template.version}:{" "}
                {template.fields.map((field) => (
                  <button
                    key={field.key}
                    type="button"
                    className="mr-1 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800 hover:bg-indigo-100"
                    onClick={() => setDraft((current) => ({ ...current, personalizationData: withDataKey(current.personalizationData, field.key, field.default ?? "") }))}
                  >
                    {field.key}
                  </button>
                ))}
              </span>
            ) : (
              "A JSON object of the template's field values."
            )
          }
          error={errorOf("personalizationData")}
        >
          {(control) => (
            <textarea {...control} rows={8} spellCheck={false} className={`${inputClass} font-mono`} value={draft.personalizationData} onChange={set("personalizationData")} placeholder='{"firstName": "Ana"}' />
          )}
        </Field>
        {template && dataWarnings.length > 0 ? (
          <section aria-label="Personalization data warnings" aria-live="polite" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
            <p className="font-medium">
              {template.name} {template.version} will not show this data as written:
            </p>
            <ul className="list-disc break-words pl-5">
              {dataWarnings.map((problem) => (
                <li key={`${problem.code}:${problem.key}`}>{problem.message}</li>
              ))}
            </ul>
            <p className="mt-1 text-xs text-amber-800">The same warnings its live preview gives. You can save anyway; the share plays it as described.</p>
          </section>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3 lg:col-span-2">
        <Button type="submit" intent="primary" busy={put.isPending} disabled={!active.length}>
          {share ? "Save changes" : `Create the ${channel} share`}
        </Button>
        {put.error && !server?.errors.length ? (
          <p role="alert" className="text-sm text-red-700">
            {problemMessage(put.error)}
          </p>
        ) : null}
      </div>
    </form>
  );
}
