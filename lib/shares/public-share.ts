import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { apiCredentials, projects, publicVideoShares, type Channel } from "@/lib/db/schema";
import { findServedTemplate } from "@/lib/templates/served-template";
import { formatData } from "@/shared/templates/format-values";
import type { BindingManifest } from "@/shared/templates/manifest";
import { fillPlaceholders } from "@/shared/templates/placeholders";
import { chargeShareMiss, shareLookupRefusal } from "./share-lookup-limit";
import { isWellFormedSlug } from "./share-rules";

/**
 * The share a public URL serves, or null. Unknown and rotated-out slugs, disabled shares and
 * shares whose credential was revoked are all null: viewers see one deactivation page for all.
 */
export async function findPublicShare(db: Db, slug: string) {
  if (!isWellFormedSlug(slug)) return null;
  const [row] = await db
    .select({
      id: publicVideoShares.id,
      organizationId: projects.organizationId,
      projectId: publicVideoShares.projectId,
      channel: publicVideoShares.channel,
      slug: publicVideoShares.slug,
      publicTitle: publicVideoShares.publicTitle,
      publicSubtitle: publicVideoShares.publicSubtitle,
      locale: publicVideoShares.locale,
      ctaLabel: publicVideoShares.ctaLabel,
      ctaUrl: publicVideoShares.ctaUrl,
      personalizationData: publicVideoShares.personalizationData,
      consentMode: publicVideoShares.consentMode,
    })
    .from(publicVideoShares)
    .innerJoin(projects, eq(projects.id, publicVideoShares.projectId))
    .innerJoin(apiCredentials, eq(apiCredentials.id, publicVideoShares.apiCredentialId))
    .where(
      and(
        eq(publicVideoShares.slug, slug),
        eq(publicVideoShares.status, "Enabled"),
        eq(apiCredentials.status, "active"),
      ),
    );
  if (!row) return null;
  return { ...row, template: await findServedTemplate(db, row.projectId, row.channel) };
}

export type PublicShare = NonNullable<Awaited<ReturnType<typeof findPublicShare>>>;

/**
 * The share's title, subtitle and call-to-action label as one viewer sees them: their
 * `{{field|default}}` placeholders filled with that viewer's data (docs/adr/0148-share-text-placeholders.md),
 * formatted as the served template's fields say for the share's locale (the video shows the same).
 */
export function viewerShareText(
  share: Pick<PublicShare, "publicTitle" | "publicSubtitle" | "ctaLabel"> & Partial<Pick<PublicShare, "locale" | "template">>,
  data: Readonly<Record<string, string>>,
) {
  const fields = (share.template?.manifest as BindingManifest | null | undefined)?.fields ?? [];
  const formatted = formatData(fields, data, share.locale).data;
  // Trimmed as the saved texts are: "Hi {{firstName}}" without a name reads "Hi".
  const fill = (text: string) => fillPlaceholders(text, formatted).trim();
  return {
    title: fill(share.publicTitle),
    subtitle: share.publicSubtitle === null ? null : fill(share.publicSubtitle) || null,
    ctaLabel: share.ctaLabel === null ? null : fill(share.ctaLabel) || null,
  };
}

/** findPublicShare for a viewer at `address`: refused (429) once the address's misses are used up; a miss is charged. */
export async function findPublicShareFor(db: Db, slug: string, address: string): Promise<PublicShare | null> {
  const refusal = shareLookupRefusal(address);
  if (refusal) throw refusal;
  const share = await findPublicShare(db, slug);
  if (!share) chargeShareMiss(slug, address);
  return share;
}

/**
 * The available share of one project named by its channel or its slug (embed sessions name
 * either), or null; a slug of another project's share is null too.
 */
export async function findProjectPublicShare(
  db: Db,
  projectId: string,
  target: { channel?: Channel | undefined; shareSlug?: string | undefined },
): Promise<PublicShare | null> {
  let slug = target.shareSlug;
  if (!slug && target.channel) {
    const [row] = await db
      .select({ slug: publicVideoShares.slug })
      .from(publicVideoShares)
      .where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, target.channel)));
    slug = row?.slug;
  }
  const share = slug ? await findPublicShare(db, slug) : null;
  return share?.projectId === projectId ? share : null;
}
