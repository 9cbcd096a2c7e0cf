ALTER TABLE "templates" ADD COLUMN "overlay" jsonb;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "frame_rate" double precision;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "in_point" double precision;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "out_point" double precision;