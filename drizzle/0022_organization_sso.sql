CREATE TABLE "organization_sso" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_ciphertext" text NOT NULL,
	"email_domain" text,
	"default_role" "role" DEFAULT 'Viewer' NOT NULL,
	"require_sso" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_sso_domain_lowercase" CHECK ("organization_sso"."email_domain" = lower("organization_sso"."email_domain")),
	CONSTRAINT "organization_sso_default_role" CHECK ("organization_sso"."default_role" <> 'OrganizationAdmin')
);
--> statement-breakpoint
ALTER TABLE "organization_sso" ADD CONSTRAINT "organization_sso_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_sso_email_domain_unique" ON "organization_sso" USING btree ("email_domain") WHERE "organization_sso"."email_domain" is not null;