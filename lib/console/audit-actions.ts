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
  "credential.created": "API credential created",
  "credential.revoked": "API credential revoked",
  "webhook.endpoint_created": "Webhook endpoint added",
  "webhook.endpoint_updated": "Webhook endpoint changed",
  "webhook.endpoint_deleted": "Webhook endpoint deleted",
  "webhook.signing_secret_rotated": "Webhook signing secret rotated",
  "webhook.delivery_resent": "Webhook delivery re-sent",
  "project.created": "Project created",
  "member.added": "Member added",
  "member.invited": "Member invited",
  "member.invitation_accepted": "Invitation accepted",
  "member.invitation_revoked": "Invitation revoked",
  "member.role_changed": "Member role changed",
  "member.removed": "Member removed",
};

export function auditActionLabel(action: string): string {
  return auditActionLabels[action] ?? action;
}
