import { Badge } from "@/components/console/badge";
import { formatDateTime } from "@/lib/console/format";
import type { ShareJson } from "@/lib/console/hooks/shares";

export function ShareStatusBadge({ share }: { share: ShareJson | null }) {
  if (!share) return <Badge>Not configured</Badge>;
  return share.status === "Enabled" ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>;
}

/** "Disabled by … on …" / "Restored by … on …": the latest transition, if any. */
export function ShareTransition({ share, people }: { share: ShareJson; people: Record<string, string> }) {
  const who = (id: string | null) => (id ? (people[id] ?? "a project member") : "someone");
  if (share.status === "Disabled" && share.disabledAt) {
    return <p className="text-sm text-red-800">Disabled by {who(share.disabledBy)} on {formatDateTime(share.disabledAt)}</p>;
  }
  if (share.restoredAt) {
    return <p className="text-sm text-slate-600">Restored by {who(share.restoredBy)} on {formatDateTime(share.restoredAt)}</p>;
  }
  return null;
}
