import type { Metadata } from "next";
import { SharePlayer } from "@/components/share-player";
import { getConfig } from "@/lib/config";
import type { PublicShare } from "@/lib/shares/public-share";
import { shareUrl } from "@/lib/shares/shares";

// The landing page of a share (/v/{slug}) and of a campaign recipient's personal URL
// (/v/{slug}/{token}): the same page, the latter playing the recipient's data.

const posterUrl = (slug: string) => `${getConfig().publicBaseUrl}/api/embed/posters/${slug}`;

// Personalized pages are for their viewer, not for search engines.
const robots = { index: false, follow: false };

export function landingMetadata(share: PublicShare | null, url?: string): Metadata {
  if (!share) return { title: "Video unavailable", robots };
  const description = share.publicSubtitle ?? undefined;
  return {
    title: share.publicTitle,
    description,
    robots,
    openGraph: {
      type: "video.other",
      title: share.publicTitle,
      description,
      url: url ?? shareUrl(share.slug),
      ...(share.template ? { images: [{ url: posterUrl(share.slug), width: share.template.width ?? undefined, height: share.template.height ?? undefined }] } : {}),
    },
  };
}

/**
 * The served template's own proportions (16:9 until the channel serves one), as wide as the
 * page allows while a portrait video still fits in 80% of the viewport's height.
 */
function playerBox(template: { width: number | null; height: number | null } | null) {
  const [w, h] = template?.width && template.height ? [template.width, template.height] : [16, 9];
  return { aspectRatio: `${w} / ${h}`, width: `min(100%, calc(80vh * ${w} / ${h}))` };
}

export function ShareLanding({ share, recipient }: { share: PublicShare; recipient?: { token: string; id: string } }) {
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 px-6 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">{share.publicTitle}</h1>
        {share.publicSubtitle && <p className="text-lg text-slate-300">{share.publicSubtitle}</p>}
      </header>
      <SharePlayer
        slug={share.slug}
        shareId={share.id}
        consentRequired={share.consentMode === "required"}
        posterUrl={share.template ? posterUrl(share.slug) : null}
        box={playerBox(share.template)}
        title={share.publicTitle}
        recipient={recipient}
      />
      {share.ctaLabel && share.ctaUrl && (
        // The player shows the call to action (a click there is recorded as cta.clicked); without JavaScript, this link does.
        <noscript>
          <a href={share.ctaUrl} target="_blank" rel="noopener noreferrer" className="self-start rounded-lg bg-indigo-500 px-5 py-3 font-medium text-white">
            {share.ctaLabel}
          </a>
        </noscript>
      )}
    </main>
  );
}
