CREATE TABLE "template_upload_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"created_by" uuid,
	"provider" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"fields" jsonb NOT NULL,
	"files" jsonb NOT NULL,
	"part_size" integer NOT NULL,
	"template_id" uuid,
	"response" jsonb,
	"problem" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_upload_sessions_provider_check" CHECK ("template_upload_sessions"."provider" in ('s3', 'local', 'uploadthing')),
	CONSTRAINT "template_upload_sessions_status_check" CHECK ("template_upload_sessions"."status" in ('open', 'completing', 'completed', 'failed', 'cancelled', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "template_upload_sessions" ADD CONSTRAINT "template_upload_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_upload_sessions" ADD CONSTRAINT "template_upload_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_upload_sessions" ADD CONSTRAINT "template_upload_sessions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "template_upload_sessions_project_idx" ON "template_upload_sessions" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "template_upload_sessions_open_idx" ON "template_upload_sessions" USING btree ("expires_at") WHERE "template_upload_sessions"."status" in ('open', 'completing');