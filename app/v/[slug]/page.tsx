import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharePlayer } from "@/components/share-player";
import { getConfig } from "@/lib/config";
import { shareUrl } from "@/lib/shares/shares";
import { loadShare } from "./load-share";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

const posterUrl = (slug: string) => `${getConfig().publicBaseUrl}/api/embed/posters/${slug}`;

// Personalized pages are for their viewer, not for search engines.
const robots = { index: false, follow: false };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const share = await loadShare((await params).slug);
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
      url: shareUrl(share.slug),
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

// GET /v/{slug} – the share's landing page; every unavailable share is the same 404 page
export default async function SharePage({ params }: Props) {
  const share = await loadShare((await params).slug);
  if (!share) notFound();
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
