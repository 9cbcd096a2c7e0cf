CREATE TABLE "member_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid,
	"email" text NOT NULL,
	"role" "role" NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "member_invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "member_invitations_email_lowercase" CHECK ("member_invitations"."email" = lower("member_invitations"."email")),
	CONSTRAINT "member_invitations_one_outcome" CHECK ("member_invitations"."accepted_at" is null or "member_invitations"."revoked_at" is null)
);
--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD COLUMN "parent_token_id" uuid;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD COLUMN "scopes" text[] DEFAULT array['read', 'templates:write', 'renders:write', 'campaigns:write', 'shares:write', 'credentials:write', 'webhooks:write', 'projects:write', 'members:write', 'tokens:write']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "member_invitations" ADD CONSTRAINT "member_invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invitations" ADD CONSTRAINT "member_invitations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invitations" ADD CONSTRAINT "member_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_invitations" ADD CONSTRAINT "member_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_invitations_open_org_unique" ON "member_invitations" USING btree ("organization_id","email") WHERE "member_invitations"."project_id" is null and "member_invitations"."accepted_at" is null and "member_invitations"."revoked_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "member_invitations_open_project_unique" ON "member_invitations" USING btree ("project_id","email") WHERE "member_invitations"."project_id" is not null and "member_invitations"."accepted_at" is null and "member_invitations"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "member_invitations_organization_idx" ON "member_invitations" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_parent_token_id_personal_access_tokens_id_fk" FOREIGN KEY ("parent_token_id") REFERENCES "public"."personal_access_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_access_tokens_parent_idx" ON "personal_access_tokens" USING btree ("parent_token_id");--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_scopes_check" CHECK (cardinality("personal_access_tokens"."scopes") > 0 and "personal_access_tokens"."scopes" <@ array['read', 'templates:write', 'renders:write', 'campaigns:write', 'shares:write', 'credentials:write', 'webhooks:write', 'projects:write', 'members:write', 'tokens:write']::text[]);