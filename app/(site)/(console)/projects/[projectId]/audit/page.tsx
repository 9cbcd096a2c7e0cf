import type { Metadata } from "next";
import { AuditLog } from "@/components/console/accounts/audit-log";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { auditEventPageSchema } from "@/lib/audit/contract";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const page = await requireProjectPage(projectId);
  const firstPage = await loadPageData(() => listAuditEvents(page, { limit: 25 }));
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Audit log</h1>
      <AuditLog projectId={projectId} firstPage={asApiJson(auditEventPageSchema, firstPage)} />
    </section>
  );
}
