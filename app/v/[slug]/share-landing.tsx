import type { Metadata } from "next";
import { PlayerHandleProvider } from "@/components/player-handle";
import { SharePlayer } from "@/components/share-player";
import { ShareTranscript, type TranscriptLine } from "@/components/share-transcript";
import { getDb } from "@/lib/db";
import { shareCues } from "@/lib/embed/viewer-cues";
import { formatTime } from "@/shared/format-time";
import { captionMessages } from "@/shared/i18n/caption-messages";
import { textDirection, translator } from "@/shared/i18n/locale";
import type { ShareRecipient } from "@/lib/campaigns/recipient-share";
import { getConfig } from "@/lib/config";
import { bindingData } from "@/lib/embed/page-manifest";
import { viewerShareText, type PublicShare } from "@/lib/shares/public-share";
import { shareUrl } from "@/lib/shares/shares";
import { landingMessages } from "@/shared/i18n/landing-messages";

// The landing page of a share (/v/{slug}) and of a campaign recipient's personal URL
// (/v/{slug}/{token}): the same page, the latter playing the recipient's data and showing
// their title, subtitle and poster (docs/adr/0148-share-text-placeholders.md).

/** A campaign recipient of a personal URL: their token, id and data (findShareRecipient). */
export type LandingRecipient = ShareRecipient & { token: string };

/** The share's poster, or the recipient's: rendered with their data. */
function posterUrl(slug: string, recipient?: LandingRecipient): string {
  const base = `${getConfig().publicBaseUrl}/api/embed/posters/${slug}`;
  return recipient ? `${base}/${recipient.token}` : base;
}

/** What this viewer reads: the share's texts filled with the recipient's data over the share's. */
const textFor = (share: PublicShare, recipient?: LandingRecipient) => viewerShareText(share, bindingData(share.personalizationData, recipient?.data));

// Personalized pages are for their viewer, not for search engines.
const robots = { index: false, follow: false };

export function landingMetadata(share: PublicShare | null, locale: string, recipient?: LandingRecipient): Metadata {
  if (!share) return { title: translator(landingMessages, locale)("unavailableTitle"), robots };
  const { title, subtitle } = textFor(share, recipient);
  const description = subtitle ?? undefined;
  const url = recipient ? `${shareUrl(share.slug)}/${recipient.token}` : shareUrl(share.slug);
  const image = share.template
    ? { url: posterUrl(share.slug, recipient), width: share.template.width ?? undefined, height: share.template.height ?? undefined, alt: title }
    : null;
  return {
    title,
    description,
    robots,
    openGraph: { type: "video.other", title, description, url, ...(image ? { images: [image] } : {}) },
    twitter: { card: image ? "summary_large_image" : "summary", title, description, ...(image ? { images: [image] } : {}) },
  };
}

/**
 * The served template's own proportions (16:9 until the channel serves one), as wide as the
 * page allows while a portrait video still fits in 80% of the viewport's height – 64% under a
 * consent banner, which is fixed at the bottom and would otherwise cover the player's controls
 * (and a control focused there: WCAG 2.4.11).
 */
function playerBox(template: { width: number | null; height: number | null } | null, consentBanner: boolean) {
  const [w, h] = template?.width && template.height ? [template.width, template.height] : [16, 9];
  const height = consentBanner ? "64vh" : "80vh";
  return { aspectRatio: `${w} / ${h}`, width: `min(100%, calc(${height} * ${w} / ${h}))` };
}

/**
 * The transcript of what this viewer plays: the served template (their A/B variant: the page
 * loads the share through shareForViewer) bound with their data over the share's, in the share's
 * locale. None for a template without cues.
 */
async function transcriptLines(share: PublicShare, recipient?: LandingRecipient): Promise<TranscriptLine[]> {
  const cues = await shareCues(await getDb(), share, bindingData(share.personalizationData, recipient?.data));
  const t = translator(captionMessages, share.locale);
  return cues.map((cue) => {
    const time = formatTime(cue.startMs);
    return { kind: cue.kind, kindLabel: t(cue.kind === "captions" ? "captionCue" : "descriptionCue"), startMs: cue.startMs, time, playLabel: t("playFrom", { time }), text: cue.text };
  });
}

export async function ShareLanding({ share, recipient, locale }: { share: PublicShare; recipient?: LandingRecipient; locale: string }) {
  const text = textFor(share, recipient);
  const transcript = await transcriptLines(share, recipient);
  const t = translator(landingMessages, locale);
  const consentRequired = share.consentMode === "required";
  return (
    // Under a consent banner the page can scroll its end clear of it.
    <main className={`mx-auto flex max-w-4xl flex-col gap-6 px-6 py-10 ${consentRequired ? "pb-48 sm:pb-28" : ""}`}>
      <header className="flex flex-col gap-2">
        <h1 className="break-words text-3xl font-semibold tracking-tight">{text.title}</h1>
        {text.subtitle && <p className="break-words text-lg text-slate-300">{text.subtitle}</p>}
      </header>
      <PlayerHandleProvider>
        <SharePlayer
          slug={share.slug}
          shareId={share.id}
          consentRequired={consentRequired}
          posterUrl={share.template ? posterUrl(share.slug, recipient) : null}
          box={playerBox(share.template, consentRequired)}
          title={text.title}
          recipient={recipient && { token: recipient.token, id: recipient.id }}
        />
        {transcript.length > 0 && (
          <ShareTranscript
            heading={translator(captionMessages, share.locale)("transcript")}
            lines={transcript}
            dir={textDirection(share.locale)}
            lang={share.locale ?? "en"}
          />
        )}
      </PlayerHandleProvider>
      {/* The player needs JavaScript; without it, say so, and the call to action (which the player shows, recording cta.clicked) is a plain link. */}
      <noscript>
        <p className="text-slate-300">{t("noscript")}</p>
        {text.ctaLabel && share.ctaUrl && (
          <a href={share.ctaUrl} target="_blank" rel="noopener noreferrer" className="mt-4 inline-block rounded-lg bg-indigo-600 px-5 py-3 font-medium text-white">
            {text.ctaLabel}
          </a>
        )}
      </noscript>
    </main>
  );
}
