"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { Field, inputClass } from "@/components/console/field";
import { EmptyState, ErrorState, RoleNote } from "@/components/console/states";
import { problemMessage, type ApiProblem } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useCampaigns, useCreateCampaign, type CampaignJson } from "@/lib/console/hooks/campaigns";
import { TableHead } from "@/components/console/table-head";

type Channel = CampaignJson["channel"];

/** The project's campaigns and the form that starts one (Editor and up). */
export function CampaignsManager({ projectId, initialCampaigns, channels, canCreate }: { projectId: string; initialCampaigns: CampaignJson[]; channels: Channel[]; canCreate: boolean }) {
  const campaigns = useCampaigns(projectId, initialCampaigns);
  const list = campaigns.data ?? initialCampaigns;
  return (
    <div className="space-y-6">
      {canCreate ? <CreateCampaignForm projectId={projectId} channels={channels} /> : <RoleNote>Creating campaigns and importing recipients needs the Editor role or higher.</RoleNote>}
      {campaigns.error ? <ErrorState message={problemMessage(campaigns.error)} retry={() => void campaigns.refetch()} /> : null}
      {list.length === 0 ? (
        <EmptyState title="No campaigns yet">A campaign gives every row of a CSV its own link to one of the project&apos;s shares.</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Campaigns</caption>
            <TableHead
              className="bg-slate-50 text-left text-slate-600"
              cellClassName="px-4 py-2 font-medium"
              columns={[{ label: "Name" }, { label: "Channel" }, { label: "Recipients", numeric: true }, { label: "Created" }]}
            />
            <tbody className="divide-y divide-slate-100">
              {list.map((campaign) => (
                <tr key={campaign.id}>
                  <td className="px-4 py-2">
                    <Link href={`/projects/${projectId}/campaigns/${campaign.id}`} className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                      {campaign.name}
                    </Link>
                  </td>
                  <td className="px-4 py-2">
                    <Badge tone="blue">{campaign.channel}</Badge>
                  </td>
                  <td className="px-4 py-2 text-right tabular-nums">{campaign.recipientCount.toLocaleString("en-US")}</td>
                  <td className="px-4 py-2 text-slate-600">
                    <time dateTime={campaign.createdAt}>{formatDateTime(campaign.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function CreateCampaignForm({ projectId, channels }: { projectId: string; channels: Channel[] }) {
  const create = useCreateCampaign(projectId);
  const router = useRouter();
  const [name, setName] = useState("");
  const [channel, setChannel] = useState<Channel | "">(channels.includes("PROD") ? "PROD" : (channels[0] ?? ""));
  const problem = create.error as ApiProblem | null;
  if (channels.length === 0) {
    return <RoleNote>The project has no share yet: create one on the Shares tab, then a campaign can give its recipients personal links to it.</RoleNote>;
  }
  return (
    <form
      aria-label="New campaign"
      className="grid gap-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-[1fr_12rem_auto] sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        if (channel === "") return;
        create.mutate({ name, channel }, { onSuccess: (campaign) => router.push(`/projects/${projectId}/campaigns/${campaign.id}`) });
      }}
    >
      <Field label="Campaign name" error={problem?.fieldError?.("name")}>
        {(control) => <input {...control} className={inputClass} value={name} maxLength={120} required onChange={(event) => setName(event.target.value)} />}
      </Field>
      <Field label="Share" error={problem?.fieldError?.("channel")}>
        {(control) => (
          <select {...control} className={inputClass} value={channel} onChange={(event) => setChannel(event.target.value as Channel)}>
            {channels.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="sm:pt-6">
        <Button type="submit" intent="primary" busy={create.isPending}>
          Create campaign
        </Button>
      </div>
      {problem && problem.errors.length === 0 ? (
        <p role="alert" className="text-sm text-red-700 sm:col-span-3">
          {problemMessage(problem)}
        </p>
      ) : null}
    </form>
  );
}
