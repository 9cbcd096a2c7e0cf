DROP INDEX "campaign_imports_campaign_sha256_unique";--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "import_key" text;--> statement-breakpoint
-- Imports made before modes and mappings were upserts without a mapping: their key is their content's SHA-256.
UPDATE "campaign_imports" SET "import_key" = "sha256";--> statement-breakpoint
ALTER TABLE "campaign_imports" ALTER COLUMN "import_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "mode" text DEFAULT 'upsert' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "field_map" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "rows_updated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "rows_unchanged" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "rows_removed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "last_import_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "recipient_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "campaigns" SET "recipient_count" = (SELECT count(*) FROM "campaign_recipients" r WHERE r."campaign_id" = "campaigns"."id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_imports_campaign_key_unique" ON "campaign_imports" USING btree ("campaign_id","import_key");--> statement-breakpoint
CREATE INDEX "renders_recipient_idx" ON "renders" USING btree ("recipient_id") WHERE "renders"."recipient_id" is not null;--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD CONSTRAINT "campaign_imports_mode_check" CHECK ("campaign_imports"."mode" in ('upsert', 'replace'));