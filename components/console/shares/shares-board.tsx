"use client";

import { ButtonLink } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { useProject } from "@/components/console/project-context";
import { ErrorState } from "@/components/console/states";
import { problemMessage } from "@/lib/console/api-client";
import { useShares, type Channel } from "@/lib/console/hooks/shares";
import type { SharesPageData } from "@/lib/console/shares/load-shares";
import { ChannelPin, ServedBy } from "./channel-pin";
import { ShareStatusBadge, ShareTransition } from "./share-status";

const channelOrder: Channel[] = ["DEV", "STAGING", "PROD"];

/** DEV, STAGING and PROD side by side (stacked on a phone): status, the template served and why (a pin for DEV and STAGING), link. */
export function SharesBoard({ projectId, shares: initialShares, servedTemplates, people }: SharesPageData & { projectId: string }) {
  const shares = useShares(projectId, initialShares);
  const { can } = useProject();
  const list = shares.data ?? initialShares;
  return (
    <div className="space-y-4">
      {shares.error ? <ErrorState message={problemMessage(shares.error)} retry={() => void shares.refetch()} /> : null}
      <ul className="grid gap-4 md:grid-cols-3" aria-label="Channels">
        {channelOrder.map((channel) => {
          const share = list.find((candidate) => candidate.channel === channel) ?? null;
          const template = servedTemplates[channel];
          return (
            <li key={channel} className="flex min-w-0 flex-col gap-3 rounded-lg bg-white p-4 ring-1 ring-slate-200" aria-label={`${channel} share`}>
              <div className="flex items-center justify-between">
                <h2 className="text-lg font-semibold">{channel}</h2>
                <ShareStatusBadge share={share} />
              </div>
              <p className="text-sm text-slate-600" data-testid="served-template">
                Plays: <ServedBy template={template} />
              </p>
              {channel === "PROD" ? (
                <p className="text-xs text-slate-500">PROD follows deploys: the template deployed (or rolled back to) last.</p>
              ) : (
                <ChannelPin projectId={projectId} channel={channel} served={template} />
              )}
              {share ? (
                <>
                  <p className="font-medium break-words">{share.publicTitle}</p>
                  <p className="truncate text-sm text-slate-500" title={share.url}>
                    {share.url}
                  </p>
                  <ShareTransition share={share} people={people} />
                  <div className="mt-auto flex flex-wrap gap-2">
                    <ButtonLink href={`/projects/${projectId}/shares/${channel}`} intent="primary">
                      {can("share.write") ? "Edit" : "View"}
                      <span className="sr-only"> the {channel} share</span>
                    </ButtonLink>
                    <CopyButton value={share.url} label="Copy link" />
                    <a href={share.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50">
                      Open<span className="sr-only"> the {channel} landing page (new tab)</span>
                    </a>
                  </div>
                </>
              ) : (
                <div className="mt-auto space-y-2">
                  <p className="text-sm text-slate-600">No landing page on this channel yet.</p>
                  {can("share.write") ? (
                    <ButtonLink href={`/projects/${projectId}/shares/${channel}`} intent="primary">
                      Set up {channel}
                    </ButtonLink>
                  ) : null}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
