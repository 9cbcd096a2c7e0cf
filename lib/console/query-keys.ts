// The react-query keys of every console resource, in one place: a mutation invalidates what it
// changed by these (and the project's audit log, which every change writes to).

export const queryKeys = {
  projects: () => ["projects"] as const,
  project: (projectId: string) => ["projects", projectId] as const,
  templates: (projectId: string) => ["projects", projectId, "templates"] as const,
  template: (projectId: string, templateId: string) => ["projects", projectId, "templates", templateId] as const,
  shares: (projectId: string) => ["projects", projectId, "shares"] as const,
  credentials: (projectId: string) => ["projects", projectId, "credentials"] as const,
  webhookEndpoints: (projectId: string) => ["projects", projectId, "webhooks", "endpoints"] as const,
  webhookDeliveries: (projectId: string) => ["projects", projectId, "webhooks", "deliveries"] as const,
  webhookSigningSecret: (projectId: string) => ["projects", projectId, "webhooks", "signing-secret"] as const,
  audit: (projectId: string) => ["projects", projectId, "audit"] as const,
  analytics: (projectId: string) => ["projects", projectId, "analytics"] as const,
  campaigns: (projectId: string) => ["projects", projectId, "campaigns"] as const,
  campaign: (projectId: string, campaignId: string) => ["projects", projectId, "campaigns", campaignId] as const,
  campaignRecipients: (projectId: string, campaignId: string) => ["projects", projectId, "campaigns", campaignId, "recipients"] as const,
  campaignThumbnails: (projectId: string, campaignId: string) => ["projects", projectId, "campaigns", campaignId, "thumbnails"] as const,
  organizationMembers: (organizationId: string) => ["organizations", organizationId, "members"] as const,
  organizationInvitations: (organizationId: string) => ["organizations", organizationId, "invitations"] as const,
  personalAccessTokens: () => ["me", "tokens"] as const,
  me: () => ["me"] as const,
  consoleSessions: () => ["me", "sessions"] as const,
};
