import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { landingLocale, loadViewerShare } from "./load-share";
import { landingMetadata, ShareLanding } from "./share-landing";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  return landingMetadata(await loadViewerShare(slug), await landingLocale(slug));
}

// GET /v/{slug} – the share's landing page; every unavailable share is the same 404 page
export default async function SharePage({ params }: Props) {
  const { slug } = await params;
  const share = await loadViewerShare(slug);
  if (!share) notFound();
  return <ShareLanding share={share} locale={await landingLocale(slug)} />;
}
