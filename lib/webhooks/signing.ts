import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

// Standard Webhooks signatures (https://www.standardwebhooks.com), made by the reference library:
// HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}` with the secret's bytes, sent as
// `v1,<base64>`; several signatures (the current secret and, after a rotation, the previous one)
// are separated by spaces, and a receiver accepts the message when any one verifies.

/** `whsec_` + 256 random bits in standard base64, the format the Standard Webhooks libraries read. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export type SignatureHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** The three headers of one attempt; `secrets` is the current secret first, then any still honoured. */
export function signatureHeaders(secrets: string[], messageId: string, sentAt: Date, body: string): SignatureHeaders {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, sentAt, body)).join(" "),
  };
}
