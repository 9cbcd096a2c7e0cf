import { userEmails } from "@/lib/accounts/accounts";
import { can } from "@/lib/auth/permissions";
import { listCredentials } from "@/lib/credentials/credentials";
import { credentialSchema } from "@/lib/credentials/contract";
import { channels, shareSchema } from "@/lib/shares/contract";
import { listShares } from "@/lib/shares/shares";
import { memberEmailFor } from "@/lib/audit/list-audit-events";
import type { BindingManifest } from "@/shared/templates/manifest";
import { findServedTemplate, type ServedBecause } from "@/lib/templates/served-template";
import { getTemplateDataRules } from "@/lib/templates/template-data-rules";
import { asApiJson } from "@/lib/console/page-access";
import type { ProjectContext } from "@/lib/services/verbs";

// What the shares pages (server components) hand their client components: the shares, the
// template each channel serves and why (with its manifest fields, as hints for the data editor), the
// project's credentials for the picker (ProjectManager and up), and who disabled or restored a
// share — another member's email only for roles that may see members, as in the audit log.

/** A channel's template with what the share form checks its data against (shared/templates/data-rules.ts). */
export type ServedTemplate = {
  id: string;
  name: string;
  version: string;
  status: string;
  /** Why the channel serves it: pinned to it, the newest Testing template, or the Production one. */
  because: ServedBecause;
  fields: { key: string; type: "text" | "image"; default?: string; maxLength: number | null; strict: boolean }[];
  imageFiles: string[];
};

export async function loadSharesPage(page: ProjectContext) {
  const { db, actor, access } = page;
  const shares = await listShares(page);
  // Each channel's own: DEV and STAGING may each have a template pinned.
  const served = await Promise.all(channels.map(async (channel) => [channel, await findServedTemplate(db, access.project.id, channel)] as const));
  const templateIds = [...new Set(served.flatMap(([, template]) => (template ? [template.id] : [])))];
  const rules = new Map(await Promise.all(templateIds.map((id) => getTemplateDataRules(db, id).then((found) => [id, found] as const))));
  const credentials = can(access.role, "credential.read") ? await listCredentials({ db, actor, access }) : [];
  const emails = await userEmails(db, [...shares.flatMap((share) => [share.disabledBy, share.restoredBy]), actor.userId]);
  const reader = { userId: actor.userId, role: access.role };
  const people = Object.fromEntries(
    Object.entries(emails).map(([id, email]) => [id, id === actor.userId ? `${email} (you)` : memberEmailFor(reader, id, email)]),
  );
  return {
    shares: asApiJson(shareSchema.array(), shares),
    servedTemplates: Object.fromEntries(
      served.map(([channel, template]) => [
        channel,
        template
          ? {
              id: template.id,
              name: template.name,
              version: template.version,
              status: template.status,
              because: template.because,
              fields: rules.get(template.id)!.fields.map((field) => ({ ...field, default: manifestDefaults(template.manifest).get(field.key) })),
              imageFiles: [...rules.get(template.id)!.imageFiles],
            }
          : null,
      ]),
    ) as Record<(typeof channels)[number], ServedTemplate | null>,
    credentials: asApiJson(credentialSchema.array(), credentials),
    people,
  };
}

/** The manifest's defaults, by key: the data editor fills a field it adds with them. */
function manifestDefaults(manifest: unknown): Map<string, string | undefined> {
  return new Map(((manifest as BindingManifest | null)?.fields ?? []).map((field) => [field.key, field.default]));
}

export type SharesPageData = Awaited<ReturnType<typeof loadSharesPage>>;
