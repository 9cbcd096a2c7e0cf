"use client";

import { useRouter } from "next/navigation";
import { useId } from "react";
import { useProject } from "@/components/console/project-context";
import { useToast } from "@/components/console/toast";
import { problemMessage } from "@/lib/console/api-client";
import { usePinChannel } from "@/lib/console/hooks/shares";
import { useTemplates } from "@/lib/console/hooks/templates";
import type { ServedTemplate } from "@/lib/console/shares/load-shares";

const becauseText: Record<ServedTemplate["because"], string> = {
  pinned: "pinned to this channel",
  "newest-testing": "the newest Testing template",
  production: "the Production template",
  variant: "an A/B variant",
};

/** What a channel plays and why, in words. */
export function ServedBy({ template }: { template: ServedTemplate | null }) {
  if (!template) return <span className="font-medium text-amber-800">no template yet</span>;
  return (
    <>
      <span className="font-medium">
        {template.name} {template.version}
      </span>{" "}
      <span>({becauseText[template.because]})</span>
    </>
  );
}

/**
 * Chooses the Testing template DEV or STAGING plays (docs/adr/0150-release-control.md): pinned,
 * it stays while newer ones are uploaded; "Newest Testing template" unpins. Editors pin DEV,
 * ProjectManagers STAGING; the others see the choice, disabled.
 */
export function ChannelPin({ projectId, channel, served }: { projectId: string; channel: "DEV" | "STAGING"; served: ServedTemplate | null }) {
  const id = useId();
  const router = useRouter();
  const toast = useToast();
  const { roleReason } = useProject();
  const templates = useTemplates(projectId);
  const pin = usePinChannel(projectId);
  const testing = (templates.data ?? []).filter((template) => template.status === "Testing");
  const reason = roleReason(channel === "DEV" ? "channel.pin-dev" : "channel.pin-staging");
  const value = served?.because === "pinned" ? served.id : "";
  return (
    <div className="min-w-0 space-y-1 text-sm">
      <label htmlFor={id} className="block font-medium text-slate-800">
        Template for {channel}
      </label>
      <select
        id={id}
        value={value}
        disabled={reason !== null || pin.isPending}
        title={reason ?? undefined}
        onChange={(event) => {
          const templateId = event.target.value || null;
          pin.mutate(
            { channel, templateId },
            {
              onSuccess: () => {
                const chosen = testing.find((template) => template.id === templateId);
                toast.success(chosen ? `${channel} now plays ${chosen.name} ${chosen.version}.` : `${channel} plays the newest Testing template again.`);
                router.refresh();
              },
            },
          );
        }}
        className="block w-full min-w-0 truncate rounded-md border-slate-300 py-1.5 text-sm disabled:bg-slate-50 disabled:text-slate-500"
      >
        <option value="">Newest Testing template (no pin)</option>
        {testing.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name} {template.version}
          </option>
        ))}
      </select>
      {pin.error ? (
        <p role="alert" className="text-red-700">
          {problemMessage(pin.error)}
        </p>
      ) : null}
    </div>
  );
}
