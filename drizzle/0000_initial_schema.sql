CREATE TYPE "public"."channel" AS ENUM('DEV', 'STAGING', 'PROD');--> statement-breakpoint
CREATE TYPE "public"."credential_status" AS ENUM('active', 'revoked');--> statement-breakpoint
CREATE TYPE "public"."idempotency_state" AS ENUM('in_flight', 'completed');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('Viewer', 'Editor', 'ProjectManager', 'OrganizationAdmin');--> statement-breakpoint
CREATE TYPE "public"."share_status" AS ENUM('Enabled', 'Disabled');--> statement-breakpoint
CREATE TYPE "public"."template_kind" AS ENUM('LottieStandalone', 'Raster');--> statement-breakpoint
CREATE TYPE "public"."template_status" AS ENUM('Testing', 'Production', 'Previous', 'Archived');--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid,
	"project_id" uuid,
	"role" "role" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_scope_check" CHECK (("memberships"."organization_id" is null) <> ("memberships"."project_id" is null))
);
--> statement-breakpoint
CREATE TABLE "personal_access_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "personal_access_tokens_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "api_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text,
	"api_key" text NOT NULL,
	"secret_hash" text NOT NULL,
	"status" "credential_status" DEFAULT 'active' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_credentials_key_unique" UNIQUE("api_key")
);
--> statement-breakpoint
CREATE TABLE "share_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"share_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "public_video_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"channel" "channel" NOT NULL,
	"slug" text NOT NULL,
	"status" "share_status" DEFAULT 'Enabled' NOT NULL,
	"public_title" text NOT NULL,
	"public_subtitle" text,
	"locale" text,
	"cta_label" text,
	"cta_url" text,
	"personalization_data" jsonb,
	"api_credential_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_by" uuid,
	"restored_at" timestamp with time zone,
	"restored_by" uuid,
	CONSTRAINT "public_video_shares_cta_pair_check" CHECK (("public_video_shares"."cta_label" is null) = ("public_video_shares"."cta_url" is null)),
	CONSTRAINT "public_video_shares_title_length_check" CHECK (char_length("public_video_shares"."public_title") between 1 and 160),
	CONSTRAINT "public_video_shares_subtitle_length_check" CHECK (char_length("public_video_shares"."public_subtitle") <= 280)
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"version" text DEFAULT '1.0' NOT NULL,
	"kind" "template_kind" NOT NULL,
	"status" "template_status" DEFAULT 'Testing' NOT NULL,
	"manifest" jsonb,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deployed_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"ever_production" boolean DEFAULT false NOT NULL,
	CONSTRAINT "templates_version_format_check" CHECK ("templates"."version" ~ '^[0-9]+\.[0-9]+$'),
	CONSTRAINT "templates_production_flag_check" CHECK ("templates"."status" <> 'Production' or "templates"."ever_production")
);
--> statement-breakpoint
CREATE TABLE "template_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"project_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" "idempotency_state" DEFAULT 'in_flight' NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("project_id","key")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"template_id" text,
	"template_version" text,
	"session_id" text,
	"playback_id" integer,
	"viewer_hash" text,
	"referrer_host" text,
	"consent" jsonb,
	"payload" jsonb NOT NULL,
	"device" jsonb,
	"geo" jsonb,
	"share_id" uuid,
	"channel" text
);
--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_video_shares" ADD CONSTRAINT "public_video_shares_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_video_shares" ADD CONSTRAINT "public_video_shares_slug_share_slugs_slug_fk" FOREIGN KEY ("slug") REFERENCES "public"."share_slugs"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_video_shares" ADD CONSTRAINT "public_video_shares_api_credential_id_api_credentials_id_fk" FOREIGN KEY ("api_credential_id") REFERENCES "public"."api_credentials"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_video_shares" ADD CONSTRAINT "public_video_shares_disabled_by_users_id_fk" FOREIGN KEY ("disabled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_video_shares" ADD CONSTRAINT "public_video_shares_restored_by_users_id_fk" FOREIGN KEY ("restored_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_files" ADD CONSTRAINT "template_files_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "projects_organization_idx" ON "projects" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_user_org_unique" ON "memberships" USING btree ("user_id","organization_id") WHERE "memberships"."organization_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_user_project_unique" ON "memberships" USING btree ("user_id","project_id") WHERE "memberships"."project_id" is not null;--> statement-breakpoint
CREATE INDEX "memberships_project_idx" ON "memberships" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "api_credentials_project_idx" ON "api_credentials" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "share_slugs_share_idx" ON "share_slugs" USING btree ("share_id");--> statement-breakpoint
CREATE UNIQUE INDEX "public_video_shares_project_channel_unique" ON "public_video_shares" USING btree ("project_id","channel");--> statement-breakpoint
CREATE UNIQUE INDEX "public_video_shares_slug_unique" ON "public_video_shares" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_one_production_per_project" ON "templates" USING btree ("project_id") WHERE "templates"."status" = 'Production';--> statement-breakpoint
CREATE INDEX "templates_project_status_idx" ON "templates" USING btree ("project_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "template_files_template_name_unique" ON "template_files" USING btree ("template_id","role","name");--> statement-breakpoint
CREATE INDEX "template_files_storage_key_idx" ON "template_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "audit_events_project_created_idx" ON "audit_events" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_events_project_event_unique" ON "analytics_events" USING btree ("project_id","event_id");--> statement-breakpoint
CREATE INDEX "analytics_events_project_occurred_idx" ON "analytics_events" USING btree ("project_id","occurred_at");