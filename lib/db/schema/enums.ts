import { pgEnum } from "drizzle-orm/pg-core";

export const roleEnum = pgEnum("role", ["Viewer", "Editor", "ProjectManager", "OrganizationAdmin"]);
export const channelEnum = pgEnum("channel", ["DEV", "STAGING", "PROD"]);
export const shareStatusEnum = pgEnum("share_status", ["Enabled", "Disabled"]);
export const credentialStatusEnum = pgEnum("credential_status", ["active", "revoked"]);
export const templateKindEnum = pgEnum("template_kind", ["LottieStandalone", "Raster"]);
export const templateStatusEnum = pgEnum("template_status", ["Testing", "Production", "Previous", "Archived"]);
export const consentModeEnum = pgEnum("consent_mode", ["not_required", "required"]);
export const idempotencyStateEnum = pgEnum("idempotency_state", ["in_flight", "completed"]);

export type Role = (typeof roleEnum.enumValues)[number];
export type Channel = (typeof channelEnum.enumValues)[number];
export type ConsentMode = (typeof consentModeEnum.enumValues)[number];
