// The audit log's actions as the console names them (the API's names stay the filter values).

export const auditActionLabels: Record<string, string> = {
  "template.uploaded": "Template uploaded",
  "template.deployed": "Template deployed",
  "template.archived": "Template archived",
  "template.deleted": "Template deleted",
  "share.created": "Share created",
  "share.updated": "Share updated",
  "share.disabled": "Share disabled",
  "share.restored": "Share restored",
  "share.slug_rotated": "Share link rotated",
  "campaign.created": "Campaign created",
  "campaign.imported": "Campaign recipients imported",
  "campaign.thumbnails_queued": "Campaign thumbnails queued",
  "campaign.recipient_updated": "Campaign recipient edited",
  "campaign.recipient_removed": "Campaign recipient removed",
  "campaign.recipient_url_regenerated": "Campaign recipient's URL made anew",
  "render.created": "Render queued",
  "credential.created": "API credential created",
  "credential.revoked": "API credential revoked",
  "webhook.endpoint_created": "Webhook endpoint added",
  "webhook.endpoint_updated": "Webhook endpoint changed",
  "webhook.endpoint_deleted": "Webhook endpoint deleted",
  "webhook.signing_secret_rotated": "Webhook signing secret rotated",
  "webhook.delivery_resent": "Webhook delivery re-sent",
  "webhook.test_sent": "Webhook test event sent",
  "project.created": "Project created",
  "member.added": "Member added",
  "member.invited": "Member invited",
  "member.invitation_accepted": "Invitation accepted",
  "member.invitation_revoked": "Invitation revoked",
  "member.role_changed": "Member role changed",
  "member.removed": "Member removed",
  "organization.created": "Organization created",
  "organization.two_factor_required": "Two-factor required for members",
  "organization.two_factor_not_required": "Two-factor no longer required",
  "user.disabled": "User disabled by the operator",
  "user.password_set": "Password set by the operator",
  "user.two_factor_reset": "Two-factor turned off by the operator",
  "user.token_created": "Token made by the operator",
};

export function auditActionLabel(action: string): string {
  return auditActionLabels[action] ?? action;
}

/** What each target type is called in the log (the API's names are internal). */
const targetTypeLabels: Record<string, string> = {
  api_credential: "API credential",
  public_video_share: "Share",
  template: "Template",
  campaign: "Campaign",
  render: "Render",
  webhook_endpoint: "Webhook endpoint",
  webhook_delivery: "Webhook delivery",
  project: "Project",
  membership: "Membership",
  invitation: "Invitation",
  organization: "Organization",
  user: "User",
};

export function targetTypeLabel(targetType: string): string {
  return targetTypeLabels[targetType] ?? targetType.replaceAll("_", " ");
}

/** The changed fields' names as the forms call them. */
const fieldLabels: Record<string, string> = {
  publicTitle: "Title",
  publicSubtitle: "Subtitle",
  locale: "Locale",
  ctaLabel: "Call-to-action label",
  ctaUrl: "Call-to-action URL",
  personalizationData: "Personalization data",
  consentMode: "Consent",
  apiCredentialId: "API credential",
  apiCredential: "API credential",
  url: "URL host",
  description: "Description",
  eventTypes: "Events",
  enabled: "Enabled",
  role: "Role",
};

function fieldLabel(field: string): string {
  const [head, ...key] = field.split(".");
  if (head === "personalizationData" && key.length) return `Data “${key.join(".")}”`;
  return fieldLabels[field] ?? field;
}

const maxValueLength = 80;

/** A recorded value as text: strings quoted, nothing as "none", long values cut. */
export function formatAuditValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.length ? value.join(", ") : "none";
  const text = typeof value === "string" ? `“${value}”` : JSON.stringify(value);
  return text.length > maxValueLength ? `${text.slice(0, maxValueLength - 1)}…` : text;
}

type AuditEventView = { action: string; targetType: string; data: Record<string, unknown> | null };

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/** The entry's subject: what it is about, named ("API credential “Shop” pk_…", "PROD share /v/…", "Template “Welcome” 1.0"). */
export function auditSubject({ targetType, data }: AuditEventView): string {
  const kind = targetTypeLabel(targetType);
  const d = data ?? {};
  const quoted = (value: unknown) => (text(value) ? `“${text(value)}”` : null);
  const parts = (() => {
    switch (targetType) {
      case "api_credential":
        return [kind, quoted(d.name) ?? (text(d.apiKey) || !data ? null : "(unnamed)"), text(d.apiKey)];
      case "public_video_share":
        return [text(d.channel) ? `${text(d.channel)} share` : kind, text(d.slug) ? `/v/${text(d.slug)}` : null];
      case "template":
        return [kind, quoted(d.name), text(d.version) ?? (typeof d.version === "number" ? String(d.version) : null)];
      case "campaign":
        return [kind, quoted(d.name), text(d.channel) ? `(${text(d.channel)} share)` : null];
      case "webhook_endpoint":
        return [kind, text(d.host)];
      case "render":
        return [kind, text(d.format)?.toUpperCase() ?? null, quoted(d.name) ? `of template ${quoted(d.name)}` : null, quoted(d.name) ? text(d.version) : null];
      case "webhook_delivery":
        return [kind, text(d.eventType), text(d.host) ? `to ${text(d.host)}` : null];
      case "membership":
      case "invitation":
        return [kind, text(d.email), text(d.role) ? `(${text(d.role)})` : null];
      case "project":
        return [kind, quoted(d.name)];
      default:
        return [kind];
    }
  })();
  return parts.filter(Boolean).join(" ");
}

/** What changed, one line each ("Title: “Old” → “New”"); entries written before changes were recorded list the field names. */
export function auditChanges({ action, data }: AuditEventView): string[] {
  if (!data) return [];
  if (Array.isArray(data.changes)) {
    return data.changes.flatMap((change: unknown) => {
      if (typeof change !== "object" || change === null || typeof (change as { field?: unknown }).field !== "string") return [];
      const { field, from, to } = change as { field: string; from?: unknown; to?: unknown };
      if (!("from" in change) && !("to" in change)) return [`${fieldLabel(field)} changed`];
      return [`${fieldLabel(field)}: ${formatAuditValue(from)} → ${formatAuditValue(to)}`];
    });
  }
  if (action === "member.role_changed" && text(data.from) && text(data.to)) return [`Role: ${text(data.from)} → ${text(data.to)}`];
  if (action === "share.slug_rotated" && text(data.previousSlug) && text(data.slug)) return [`Link: /v/${text(data.previousSlug)} → /v/${text(data.slug)}`];
  if (action === "template.archived" && text(data.from)) return [`Status: ${text(data.from)} → Archived`];
  if (Array.isArray(data.changed) && data.changed.length) {
    return [`Changed: ${data.changed.filter((field): field is string => typeof field === "string").map(fieldLabel).join(", ")}`];
  }
  return [];
}
