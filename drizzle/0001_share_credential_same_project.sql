ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_project_id_unique" UNIQUE("project_id","id");--> statement-breakpoint
ALTER TABLE "public_video_shares" DROP CONSTRAINT "public_video_shares_api_credential_id_api_credentials_id_fk";--> statement-breakpoint
ALTER TABLE "public_video_shares" ADD CONSTRAINT "public_video_shares_credential_same_project_fk" FOREIGN KEY ("project_id","api_credential_id") REFERENCES "public"."api_credentials"("project_id","id") ON DELETE no action ON UPDATE no action;
