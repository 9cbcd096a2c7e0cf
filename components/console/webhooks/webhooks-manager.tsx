"use client";

import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { ConfirmMutationDialog, Dialog } from "@/components/console/dialog";
import { Field, inputClass } from "@/components/console/field";
import { EmptyState, ErrorState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { formatDateTime, formatDateTimeSeconds } from "@/lib/console/format";
import {
  useCreateEndpoint,
  useDeleteEndpoint,
  useDeliveries,
  useResendDelivery,
  useRotateSigningSecret,
  useSendTestEvent,
  useSigningSecret,
  useUpdateEndpoint,
  useWebhookEndpoints,
  type DeliveryJson,
  type DeliveryPage,
  type EndpointJson,
} from "@/lib/console/hooks/webhooks";
import { webhookEventTypes } from "@/lib/webhooks/event-types";

const eventTypeLabels: Record<string, string> = {
  "render.completed": "Render completed",
  "render.failed": "Render failed",
  "campaign.imported": "Campaign imported",
  "webhook.test": "Test event",
};

export function WebhooksManager({ projectId, initialEndpoints, initialDeliveries }: { projectId: string; initialEndpoints: EndpointJson[]; initialDeliveries: DeliveryPage }) {
  return (
    <div className="space-y-10">
      <EndpointsSection projectId={projectId} initialEndpoints={initialEndpoints} />
      <SigningSecretSection projectId={projectId} />
      <DeliveriesSection projectId={projectId} initialDeliveries={initialDeliveries} />
    </div>
  );
}

function SectionHeading({ id, title, children, action }: { id: string; title: string; children?: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
      <div>
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {children ? <p className="max-w-2xl text-sm text-slate-600">{children}</p> : null}
      </div>
      {action}
    </div>
  );
}

function EndpointsSection({ projectId, initialEndpoints }: { projectId: string; initialEndpoints: EndpointJson[] }) {
  const endpoints = useWebhookEndpoints(projectId, initialEndpoints);
  const [editing, setEditing] = useState<EndpointJson | "new" | null>(null);
  const [deleting, setDeleting] = useState<EndpointJson | null>(null);
  const [saveWarnings, setSaveWarnings] = useState<string[]>([]);
  const update = useUpdateEndpoint(projectId);
  const sendTest = useSendTestEvent(projectId);
  const toast = useToast();
  const list = endpoints.data ?? initialEndpoints;
  return (
    <section aria-labelledby="webhook-endpoints">
      <SectionHeading
        id="webhook-endpoints"
        title="Endpoints"
        action={
          <Button intent="primary" onClick={() => setEditing("new")}>
            Add endpoint
          </Button>
        }
      >
        URLs of your servers that receive the project&rsquo;s events.
      </SectionHeading>
      {endpoints.error ? <ErrorState message={problemMessage(endpoints.error)} retry={() => void endpoints.refetch()} /> : null}
      {saveWarnings.length > 0 ? <SaveWarnings warnings={saveWarnings} onDismiss={() => setSaveWarnings([])} /> : null}
      {list.length === 0 ? (
        <EmptyState title="No webhook endpoints yet">Add one to be told when renders finish or fail and when campaigns are imported.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Webhook endpoints">
          {list.map((endpoint) => (
            <li key={endpoint.id} className="flex flex-col gap-3 px-4 py-3 lg:flex-row lg:items-center lg:justify-between">
              <div className="min-w-0 space-y-1">
                <p className="break-all font-mono text-sm text-slate-900">{endpoint.url}</p>
                <p className="flex flex-wrap items-center gap-1.5 text-sm text-slate-600">
                  <Badge tone={endpoint.enabled ? "green" : "slate"}>{endpoint.enabled ? "Enabled" : "Disabled"}</Badge>
                  {endpoint.eventTypes.length === 0 ? <Badge tone="blue">All events</Badge> : endpoint.eventTypes.map((type) => <Badge key={type} tone="blue">{eventTypeLabels[type] ?? type}</Badge>)}
                  {endpoint.description ? <span>{endpoint.description}</span> : null}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  busy={sendTest.isPending && sendTest.variables === endpoint.id}
                  onClick={() =>
                    sendTest.mutate(endpoint.id, {
                      onSuccess: () => toast.success("Test event queued: see Deliveries below."),
                      onError: (error) => toast.error(problemMessage(error)),
                    })
                  }
                >
                  Send test event<span className="sr-only"> to {endpoint.url}</span>
                </Button>
                <Button onClick={() => setEditing(endpoint)}>
                  Edit<span className="sr-only"> {endpoint.url}</span>
                </Button>
                <Button
                  onClick={() =>
                    update.mutate(
                      { id: endpoint.id, enabled: !endpoint.enabled },
                      {
                        onSuccess: () => toast.success(endpoint.enabled ? "Endpoint disabled." : "Endpoint enabled."),
                        onError: (error) => toast.error(problemMessage(error)),
                      },
                    )
                  }
                >
                  {endpoint.enabled ? "Disable" : "Enable"}
                  <span className="sr-only"> {endpoint.url}</span>
                </Button>
                <Button intent="ghost" onClick={() => setDeleting(endpoint)}>
                  Delete<span className="sr-only"> {endpoint.url}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing ? <EndpointDialog projectId={projectId} endpoint={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={setSaveWarnings} /> : null}
      {deleting ? <DeleteEndpointDialog projectId={projectId} endpoint={deleting} onClose={() => setDeleting(null)} /> : null}
    </section>
  );
}

/** What the last save warned of (a host that did not resolve), until dismissed or the next save. */
function SaveWarnings({ warnings, onDismiss }: { warnings: string[]; onDismiss: () => void }) {
  return (
    <div role="status" aria-label="Endpoint saved with a warning" className="mb-3 flex flex-wrap items-start justify-between gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
      <div className="min-w-0 space-y-1">
        <p className="font-medium">Saved with a warning</p>
        {warnings.map((warning) => (
          <p key={warning} className="break-words">
            {warning.replace(/^url: /, "")}
          </p>
        ))}
      </div>
      <Button intent="ghost" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

function EndpointDialog({ projectId, endpoint, onClose, onSaved }: { projectId: string; endpoint: EndpointJson | null; onClose: () => void; onSaved: (warnings: string[]) => void }) {
  const create = useCreateEndpoint(projectId);
  const update = useUpdateEndpoint(projectId);
  const mutation = endpoint ? update : create;
  const toast = useToast();
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [eventTypes, setEventTypes] = useState<string[]>(endpoint?.eventTypes ?? []);
  const problem = mutation.error instanceof ApiProblem ? mutation.error : null;
  const fieldError = (path: string) => problem?.errors.find((error) => error.path === path || error.path.startsWith(`${path}.`))?.message ?? null;
  const otherError = mutation.error && !fieldError("url") && !fieldError("description") && !fieldError("eventTypes") ? problemMessage(mutation.error) : null;
  const submit = () => {
    const input = { url: url.trim(), description: description.trim() || null, eventTypes };
    const done = {
      onSuccess: ({ warnings }: { warnings: string[] }) => {
        toast.success(`${endpoint ? "Endpoint saved" : "Endpoint added"}${warnings.length > 0 ? ", with a warning" : ""}.`);
        onSaved(warnings);
        onClose();
      },
    };
    if (endpoint) update.mutate({ id: endpoint.id, ...input }, done);
    else create.mutate(input, done);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title={endpoint ? "Edit endpoint" : "Add endpoint"}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button intent="primary" type="submit" form="webhook-endpoint" busy={mutation.isPending}>
            {endpoint ? "Save endpoint" : "Add endpoint"}
          </Button>
        </>
      }
    >
      <form
        id="webhook-endpoint"
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field label="URL" hint="An https:// URL of your server. Addresses on private networks are refused; a host that does not resolve yet is saved with a warning." error={fieldError("url")}>
          {(control) => <input {...control} className={inputClass} type="url" inputMode="url" value={url} maxLength={2048} autoFocus placeholder="https://example.com/webhooks/reelbind" onChange={(event) => setUrl(event.target.value)} />}
        </Field>
        <Field label="Description" hint="Optional: what receives it, e.g. “CRM sync”." error={fieldError("description")}>
          {(control) => <input {...control} className={inputClass} value={description} maxLength={200} onChange={(event) => setDescription(event.target.value)} />}
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <p className="text-xs text-slate-500">None checked: every event, including types added later.</p>
          {webhookEventTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
                checked={eventTypes.includes(type)}
                onChange={(event) => setEventTypes(event.target.checked ? [...eventTypes, type] : eventTypes.filter((checked) => checked !== type))}
              />
              {eventTypeLabels[type]} <code className="text-xs text-slate-500">{type}</code>
            </label>
          ))}
          {fieldError("eventTypes") ? <p className="text-sm text-red-700">{fieldError("eventTypes")}</p> : null}
        </fieldset>
        {otherError ? (
          <p role="alert" className="text-sm text-red-700">
            {otherError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

function DeleteEndpointDialog({ projectId, endpoint, onClose }: { projectId: string; endpoint: EndpointJson; onClose: () => void }) {
  const remove = useDeleteEndpoint(projectId);
  const toast = useToast();
  return (
    <ConfirmMutationDialog
      open
      onClose={onClose}
      danger
      title="Delete this endpoint?"
      description={
        <>
          <span className="break-all font-mono">{endpoint.url}</span> stops receiving events, and its deliveries leave the log. To pause it instead, disable it.
        </>
      }
      confirmLabel="Delete endpoint"
      mutation={remove}
      variables={endpoint.id}
      onDone={() => {
        toast.success("Endpoint deleted.");
        onClose();
      }}
    />
  );
}

function SigningSecretSection({ projectId }: { projectId: string }) {
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const secret = useSigningSecret(projectId, revealed);
  const rotate = useRotateSigningSecret(projectId);
  const toast = useToast();
  const value = secret.data?.secret;
  return (
    <section aria-labelledby="webhook-signing-secret">
      <SectionHeading
        id="webhook-signing-secret"
        title="Signing secret"
        action={
          <Button onClick={() => setConfirming(true)} intent="secondary">
            Rotate secret
          </Button>
        }
      >
        Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers; verify them with this secret and any Standard Webhooks library.
      </SectionHeading>
      <div className="space-y-2 rounded-lg bg-white p-4 ring-1 ring-slate-200">
        <div className="flex flex-wrap items-center gap-2">
          <code data-testid="signing-secret" className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm">
            {revealed && value ? value : "whsec_••••••••••••••••••••••••"}
          </code>
          <Button onClick={() => setRevealed(!revealed)} busy={revealed && secret.isFetching && !value}>
            {revealed ? "Hide" : "Reveal"}
            <span className="sr-only"> signing secret</span>
          </Button>
          {revealed && value ? <CopyButton value={value} label="Copy secret" /> : null}
        </div>
        {secret.error ? <p className="text-sm text-red-700">{problemMessage(secret.error)}</p> : null}
        {secret.data?.previousSecretExpiresAt ? (
          <p className="text-sm text-slate-600">Until {formatDateTime(secret.data.previousSecretExpiresAt)} deliveries also carry a signature made with the previous secret.</p>
        ) : null}
      </div>
      <ConfirmMutationDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Rotate the signing secret?"
        description="A new secret signs every delivery from now on. For 24 hours deliveries also carry a signature made with the current secret, so your receivers have a day to switch."
        confirmLabel="Rotate secret"
        mutation={rotate}
        variables={undefined}
        onDone={() => {
          setConfirming(false);
          setRevealed(true);
          toast.success("Signing secret rotated: copy the new one to your receivers.");
        }}
      />
    </section>
  );
}

const statusTones: Record<DeliveryJson["status"], { tone: BadgeTone; label: string }> = {
  delivered: { tone: "green", label: "Delivered" },
  pending: { tone: "amber", label: "Pending" },
  failed: { tone: "red", label: "Failed" },
};

function DeliveriesSection({ projectId, initialDeliveries }: { projectId: string; initialDeliveries: DeliveryPage }) {
  const deliveries = useDeliveries(projectId, initialDeliveries);
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? initialDeliveries.items;
  return (
    <section aria-labelledby="webhook-deliveries">
      <SectionHeading id="webhook-deliveries" title="Deliveries">
        Newest first. A failed attempt is retried after 5 s, 30 s, 2 min, 10 min… for 24 hours.
      </SectionHeading>
      {deliveries.error ? <ErrorState message={problemMessage(deliveries.error)} retry={() => void deliveries.refetch()} /> : null}
      {items.length === 0 ? (
        <EmptyState title="No deliveries yet">Events sent to your endpoints show here. Send a test event to try one.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Webhook deliveries">
          {items.map((delivery) => (
            <DeliveryItem key={delivery.id} projectId={projectId} delivery={delivery} />
          ))}
        </ul>
      )}
      {deliveries.hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <Button onClick={() => void deliveries.fetchNextPage()} busy={deliveries.isFetchingNextPage}>
            Load older deliveries
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function lastOutcome(delivery: DeliveryJson): string {
  if (delivery.status === "delivered") return `HTTP ${delivery.lastStatusCode}`;
  if (delivery.lastError) return delivery.lastError;
  return delivery.attempts === 0 ? "Not tried yet" : `HTTP ${delivery.lastStatusCode}`;
}

function DeliveryItem({ projectId, delivery }: { projectId: string; delivery: DeliveryJson }) {
  const resend = useResendDelivery(projectId);
  const toast = useToast();
  const status = statusTones[delivery.status];
  return (
    <li className="space-y-2 px-4 py-3" data-testid="webhook-delivery">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={status.tone}>{status.label}</Badge>
            <span className="font-medium">{eventTypeLabels[delivery.eventType] ?? delivery.eventType}</span>
            <code className="text-xs text-slate-500">{delivery.messageId}</code>
          </p>
          <p className="break-all font-mono text-xs text-slate-600">{delivery.url}</p>
          <p className="text-sm text-slate-600">
            <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time> · {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"} · {lastOutcome(delivery)}
            {delivery.nextAttemptAt && delivery.attempts > 0 ? <> · next try {formatDateTime(delivery.nextAttemptAt)}</> : null}
          </p>
        </div>
        <Button
          className="shrink-0 self-start"
          disabledReason={delivery.status === "pending" ? "Pending deliveries are retried on their own" : null}
          busy={resend.isPending}
          onClick={() =>
            resend.mutate(delivery.id, {
              onSuccess: () => toast.success("Delivery queued again."),
              onError: (error) => toast.error(problemMessage(error)),
            })
          }
        >
          Re-send<span className="sr-only"> {delivery.messageId}</span>
        </Button>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-700">Attempts and payload</summary>
        <div className="mt-2 space-y-3">
          {delivery.attemptLog.length === 0 ? (
            <p className="text-slate-600">No attempt yet.</p>
          ) : (
            <ol className="space-y-1" aria-label="Attempt log">
              {delivery.attemptLog.map((entry, index) => (
                <li key={index} className="flex flex-wrap gap-x-2 text-slate-700">
                  <time dateTime={entry.at} className="tabular-nums text-slate-500">
                    {formatDateTimeSeconds(entry.at)}
                  </time>
                  {"resent" in entry ? (
                    <span className="font-medium">Re-sent</span>
                  ) : (
                    <>
                      <span className={entry.statusCode !== null && entry.statusCode < 300 ? "text-green-800" : "text-red-800"}>{entry.statusCode !== null ? `HTTP ${entry.statusCode}` : entry.error}</span>
                      <span className="text-slate-500">{entry.durationMs} ms</span>
                      {entry.response ? <span className="break-all text-slate-500">“{entry.response}”</span> : null}
                    </>
                  )}
                </li>
              ))}
            </ol>
          )}
          <pre className="max-h-64 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(delivery.payload, null, 2)}</pre>
        </div>
      </details>
    </li>
  );
}
