ALTER TABLE "renders" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "renders" ADD COLUMN "captions" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "renders" ADD CONSTRAINT "renders_captions_check" CHECK ("renders"."captions" in ('none', 'attach', 'burn'));