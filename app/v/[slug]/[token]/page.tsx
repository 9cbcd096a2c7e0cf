import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { landingLocale, loadRecipientShare } from "../load-share";
import { landingMetadata, ShareLanding } from "../share-landing";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; token: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, token } = await params;
  const found = await loadRecipientShare(slug, token);
  return landingMetadata(found?.share ?? null, await landingLocale(slug), found ? { ...found.recipient, token } : undefined);
}

// GET /v/{slug}/{recipientToken} – a campaign recipient's personal page: the share playing their data, under their title and poster.
// An unknown token, or one of another share, is the same 404 page as an unavailable share.
export default async function RecipientPage({ params }: Props) {
  const { slug, token } = await params;
  const found = await loadRecipientShare(slug, token);
  if (!found) notFound();
  return <ShareLanding share={found.share} recipient={{ ...found.recipient, token }} locale={await landingLocale(slug)} />;
}
