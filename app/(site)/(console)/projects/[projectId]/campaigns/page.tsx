import type { Metadata } from "next";
import { CampaignsManager } from "@/components/console/campaigns/campaigns-manager";
import { can } from "@/lib/auth/permissions";
import { listCampaigns } from "@/lib/campaigns/campaigns";
import { campaignSchema } from "@/lib/campaigns/contract";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";
import { listShares } from "@/lib/shares/shares";

export const metadata: Metadata = { title: "Campaigns" };

export default async function CampaignsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const page = await requireProjectPage(projectId);
  const { access } = page;
  const [campaigns, shares] = await loadPageData(() => Promise.all([listCampaigns(page), listShares(page)]));
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Campaigns</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          One personal link per recipient: upload a CSV whose columns are the template&apos;s fields, and each row gets its own URL playing its own data.
        </p>
      </div>
      <CampaignsManager
        projectId={projectId}
        initialCampaigns={asApiJson(campaignSchema.array(), campaigns)}
        channels={shares.map((share) => share.channel)}
        canCreate={can(access.role, "campaign.write")}
      />
    </section>
  );
}
