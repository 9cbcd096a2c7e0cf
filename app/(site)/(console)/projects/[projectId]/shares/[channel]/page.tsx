import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ShareEditor } from "@/components/console/shares/share-editor";
import { ShareVariants } from "@/components/console/shares/share-variants";
import { requireProjectPage } from "@/lib/console/page-access";
import { loadSharesPage } from "@/lib/console/shares/load-shares";
import { loadPreviewRecipients } from "@/lib/console/shares/preview-recipients";
import { getConfig } from "@/lib/config";
import { channelSchema } from "@/lib/shares/contract";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Share" };

export default async function SharePage({ params }: { params: Promise<{ projectId: string; channel: string }> }) {
  const { projectId, channel: channelParam } = await params;
  const channel = channelSchema.safeParse(channelParam);
  if (!channel.success) notFound();
  const page = await requireProjectPage(projectId);
  const [data, previewRecipients] = await loadPageData(() => Promise.all([loadSharesPage(page), loadPreviewRecipients(page, channel.data)]));
  const share = data.shares.find((candidate) => candidate.channel === channel.data);
  return (
    <div className="space-y-8">
      <ShareEditor
      projectId={projectId}
      channel={channel.data}
      currentUserId={page.actor.userId}
      baseUrl={getConfig().publicBaseUrl}
      previewRecipients={previewRecipients}
      {...data}
      />
      {share ? <ShareVariants projectId={projectId} channel={channel.data} /> : null}
    </div>
  );
}
