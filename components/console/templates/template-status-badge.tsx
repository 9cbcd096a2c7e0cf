import { Badge, type BadgeTone } from "@/components/console/badge";
import type { TemplateStatus } from "@/lib/console/templates/template-rules";

const tones: Record<TemplateStatus, BadgeTone> = { Testing: "amber", Production: "green", Previous: "blue", Archived: "slate" };

export function TemplateStatusBadge({ status }: { status: TemplateStatus }) {
  return <Badge tone={tones[status]}>{status}</Badge>;
}
