import type { Metadata } from "next";
import { SharesBoard } from "@/components/console/shares/shares-board";
import { requireProjectPage } from "@/lib/console/page-access";
import { loadSharesPage } from "@/lib/console/shares/load-shares";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Shares" };

export default async function SharesPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const page = await requireProjectPage(projectId);
  const data = await loadPageData(() => loadSharesPage(page));
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Shares</h1>
        <p className="mt-1 text-sm text-slate-600">One public landing page per channel. PROD plays the Production template; DEV and STAGING the Testing template pinned to them, else the newest one.</p>
      </div>
      <SharesBoard projectId={projectId} {...data} />
    </section>
  );
}
