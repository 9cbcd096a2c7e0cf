// The event types a webhook endpoint can receive; no server imports, so the console's forms use it too.

export const webhookEventTypes = ["render.completed", "render.failed", "campaign.imported"] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
