CREATE TABLE "channel_pins" (
	"project_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"template_id" uuid NOT NULL,
	"pinned_by" uuid,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_pins_project_id_channel_pk" PRIMARY KEY("project_id","channel"),
	CONSTRAINT "channel_pins_channel_check" CHECK ("channel_pins"."channel" in ('DEV', 'STAGING'))
);
--> statement-breakpoint
CREATE TABLE "share_variants" (
	"share_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"weight" integer NOT NULL,
	"position" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_by" uuid,
	CONSTRAINT "share_variants_share_id_template_id_pk" PRIMARY KEY("share_id","template_id"),
	CONSTRAINT "share_variants_weight_check" CHECK ("share_variants"."weight" between 1 and 99),
	CONSTRAINT "share_variants_position_check" CHECK ("share_variants"."position" between 0 and 3)
);
--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "deploy_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "deploy_scheduled_by" uuid;--> statement-breakpoint
ALTER TABLE "channel_pins" ADD CONSTRAINT "channel_pins_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_pins" ADD CONSTRAINT "channel_pins_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_pins" ADD CONSTRAINT "channel_pins_pinned_by_users_id_fk" FOREIGN KEY ("pinned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_variants" ADD CONSTRAINT "share_variants_share_id_public_video_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."public_video_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_variants" ADD CONSTRAINT "share_variants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_variants" ADD CONSTRAINT "share_variants_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_variants" ADD CONSTRAINT "share_variants_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "share_variants_position_unique" ON "share_variants" USING btree ("share_id","position");--> statement-breakpoint
CREATE INDEX "share_variants_template_idx" ON "share_variants" USING btree ("template_id");--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_deploy_scheduled_by_users_id_fk" FOREIGN KEY ("deploy_scheduled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "templates_deploy_at_idx" ON "templates" USING btree ("deploy_at") WHERE "templates"."deploy_at" is not null;