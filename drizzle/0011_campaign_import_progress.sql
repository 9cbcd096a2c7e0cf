DROP INDEX "campaign_recipients_project_viewer_idx";--> statement-breakpoint
ALTER TABLE "campaign_imports" ADD COLUMN "rows_estimated" integer;