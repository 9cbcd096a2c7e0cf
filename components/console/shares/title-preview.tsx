"use client";

import { useId, useState } from "react";
import { inputClass } from "@/components/console/field";
import type { PreviewRecipient } from "@/lib/console/shares/preview-recipients";
import { parsePersonalizationData } from "@/lib/console/shares/share-form";
import { playedData } from "@/shared/templates/data-rules";
import { fillPlaceholders, hasPlaceholders } from "@/shared/templates/placeholders";

type Props = {
  title: string;
  subtitle: string;
  ctaLabel: string;
  /** The draft's personalization data, as typed (JSON); unreadable JSON previews with no data. */
  shareData: string;
  recipients: PreviewRecipient[];
};

/**
 * What a viewer reads of a title with {{placeholders}}: filled with the share's data, or with a
 * chosen campaign recipient's over it, as their personal page fills it. Shown only when one of
 * the texts has a placeholder.
 */
export function TitlePreview({ title, subtitle, ctaLabel, shareData, recipients }: Props) {
  const selectId = useId();
  const [recipientId, setRecipientId] = useState("");
  if (![title, subtitle, ctaLabel].some(hasPlaceholders)) return null;
  const recipient = recipients.find((candidate) => candidate.id === recipientId);
  const data = { ...playedData(parsePersonalizationData(shareData).data), ...recipient?.data };
  const fill = (text: string) => fillPlaceholders(text, data).trim();
  return (
    <section aria-label="Personalized preview" className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
      {recipients.length > 0 ? (
        <div className="space-y-1">
          <label htmlFor={selectId} className="block text-sm font-medium text-slate-800">
            Preview with
          </label>
          <select id={selectId} className={inputClass} value={recipientId} onChange={(event) => setRecipientId(event.target.value)}>
            <option value="">The share&apos;s personalization data</option>
            {recipients.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div aria-live="polite" className="space-y-1 break-words text-sm text-slate-800" data-testid="title-preview">
        <p>
          <span className="font-medium">Preview:</span> {fill(title)}
        </p>
        {subtitle.trim() ? <p className="text-slate-600">{fill(subtitle)}</p> : null}
        {ctaLabel.trim() && hasPlaceholders(ctaLabel) ? <p className="text-slate-600">Button: {fill(ctaLabel)}</p> : null}
      </div>
      <p className="text-xs text-slate-500">
        Write <code className="font-mono">{"{{firstName|there}}"}</code> for a viewer&apos;s field, with the text to show when they have none.
      </p>
    </section>
  );
}
