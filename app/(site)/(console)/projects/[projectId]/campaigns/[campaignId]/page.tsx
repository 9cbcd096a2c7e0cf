import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { CampaignView } from "@/components/console/campaigns/campaign-view";
import { can } from "@/lib/auth/permissions";
import { getCampaignDetail } from "@/lib/campaigns/campaigns";
import { campaignDetailSchema } from "@/lib/campaigns/contract";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Campaign" };

export default async function CampaignPage({ params }: { params: Promise<{ projectId: string; campaignId: string }> }) {
  const { projectId, campaignId } = await params;
  const page = await requireProjectPage(projectId);
  const { access } = page;
  const campaign = await loadPageData(() => getCampaignDetail(page, campaignId)).catch((error: unknown) => {
    if (isAppError(error, "not_found")) notFound();
    throw error;
  });
  return <CampaignView projectId={projectId} initialCampaign={asApiJson(campaignDetailSchema, campaign)} canImport={can(access.role, "campaign.write")} />;
}
