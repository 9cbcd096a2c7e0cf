import type { Metadata } from "next";
import { WebhooksManager } from "@/components/console/webhooks/webhooks-manager";
import { RoleNote } from "@/components/console/states";
import { can, minimumRole } from "@/lib/auth/permissions";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { deliveryPageSchema, endpointSchema } from "@/lib/webhooks/contract";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const page = await requireProjectPage(projectId);
  const { access } = page;
  const heading = (
    <div>
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        Your servers hear about finished and failed renders and imported campaigns as signed HTTP POSTs (Standard Webhooks). Failed deliveries are retried for 24 hours.
      </p>
    </div>
  );
  if (!can(access.role, "webhook.read")) {
    return (
      <section className="space-y-4">
        {heading}
        <RoleNote>
          Webhooks need the {minimumRole["webhook.read"]} role; you are {access.role}.
        </RoleNote>
      </section>
    );
  }
  const [endpoints, deliveries] = await loadPageData(() => Promise.all([listEndpoints(page), listDeliveries(page, { limit: 25 })]));
  return (
    <section className="space-y-8">
      {heading}
      <WebhooksManager projectId={projectId} initialEndpoints={asApiJson(endpointSchema.array(), endpoints)} initialDeliveries={asApiJson(deliveryPageSchema, deliveries)} />
    </section>
  );
}
