ALTER TABLE "webhook_deliveries" ADD COLUMN "retry_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_signing_keys" ADD COLUMN "previous_secret_ciphertext" text;