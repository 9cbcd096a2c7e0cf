CREATE TABLE "recipient_posters" (
	"recipient_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"data_hash" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recipient_posters_recipient_id_template_id_pk" PRIMARY KEY("recipient_id","template_id"),
	CONSTRAINT "recipient_posters_data_hash_check" CHECK ("recipient_posters"."data_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "recipient_posters_sha256_check" CHECK ("recipient_posters"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "recipient_posters" ADD CONSTRAINT "recipient_posters_recipient_id_campaign_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."campaign_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_posters" ADD CONSTRAINT "recipient_posters_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;