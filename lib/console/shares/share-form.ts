import { characters, isExactHttpUrl, maxPersonalizationDataBytes, shareLocale, shareTextLimits } from "@/lib/shares/share-rules";
import { asPlayedValues, checkPersonalizationData, type DataProblem, type DataRuleField } from "@/shared/templates/data-rules";

// The share form's checks as the user types, on the rules the API's PUT body uses
// (lib/shares/share-rules.ts); the server checks again and its 422 errors are shown by field.

export type ShareDraft = {
  publicTitle: string;
  publicSubtitle: string;
  locale: string;
  ctaLabel: string;
  ctaUrl: string;
  personalizationData: string;
  consentMode: "required" | "not_required";
  apiCredentialId: string;
};

export type ShareBody = {
  publicTitle: string;
  publicSubtitle: string | null;
  locale: string | null;
  ctaLabel: string | null;
  ctaUrl: string | null;
  personalizationData: Record<string, unknown> | null;
  consentMode: "required" | "not_required";
  apiCredentialId: string;
};

/** Characters of a field as the server counts them once it has trimmed the value. */
export const trimmedCharacters = (value: string) => characters(value.trim());

/** The personalization data as an object, or why it is not one. */
export function parsePersonalizationData(text: string): { data: Record<string, unknown> | null; error: string | null } {
  if (text.trim() === "") return { data: null, error: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { data: null, error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { data: null, error: "Must be a JSON object, like {\"firstName\": \"Ana\"}." };
  if (new TextEncoder().encode(JSON.stringify(value)).length > maxPersonalizationDataBytes) return { data: null, error: "Must be at most 16 KB as JSON." };
  return { data: value as Record<string, unknown>, error: null };
}

/** The template the share's channel serves, as far as its data rules go. */
export type ShareTemplateRules = { name: string; version: string; fields: readonly DataRuleField[]; imageFiles: readonly string[] };

/**
 * What the served template makes of the draft's data: the live preview's warnings, and its
 * refusals for strict fields (shared/templates/data-rules.ts, the rules the API applies on save).
 * None while the data is not a JSON object (that is its own error) or no template is served.
 */
export function shareDataProblems(text: string, template: ShareTemplateRules | null): DataProblem[] {
  const { data } = parsePersonalizationData(text);
  if (!data || !template) return [];
  return checkPersonalizationData(template.fields, asPlayedValues(data), new Set(template.imageFiles));
}

/** The sentence for strict fields' refusals, naming the template. */
export function refusalMessage(refused: readonly Pick<DataProblem, "message">[], template: Pick<ShareTemplateRules, "name" | "version">): string {
  return `${template.name} ${template.version} refuses this data: ${refused.map((problem) => problem.message).join("; ")}.`;
}

/** Field → message for what the server would refuse; empty when the draft can be sent. */
export function validateShareDraft(draft: ShareDraft, template: ShareTemplateRules | null = null): Partial<Record<keyof ShareDraft, string>> {
  const errors: Partial<Record<keyof ShareDraft, string>> = {};
  const title = trimmedCharacters(draft.publicTitle);
  if (title === 0) errors.publicTitle = "A title is required.";
  else if (title > shareTextLimits.publicTitle) errors.publicTitle = `At most ${shareTextLimits.publicTitle} characters.`;
  if (trimmedCharacters(draft.publicSubtitle) > shareTextLimits.publicSubtitle) errors.publicSubtitle = `At most ${shareTextLimits.publicSubtitle} characters.`;
  if (draft.locale.trim() && !shareLocale(draft.locale.trim())) errors.locale = "Language-REGION, a BCP 47 tag such as en-US, de-DE or ar-EG.";
  const label = draft.ctaLabel.trim();
  const url = draft.ctaUrl.trim();
  if (characters(label) > shareTextLimits.ctaLabel) errors.ctaLabel = `At most ${shareTextLimits.ctaLabel} characters.`;
  if (label && !url) errors.ctaUrl = "A button needs a link: give both or neither.";
  if (url && !label) errors.ctaLabel = "A link needs a button label: give both or neither.";
  if (url && !isExactHttpUrl(url)) errors.ctaUrl = "Must be an absolute http:// or https:// address.";
  const data = parsePersonalizationData(draft.personalizationData);
  if (data.error) errors.personalizationData = data.error;
  const refused = shareDataProblems(draft.personalizationData, template).filter((problem) => problem.strict);
  if (template && refused.length > 0) errors.personalizationData = refusalMessage(refused, template);
  if (!draft.apiCredentialId) errors.apiCredentialId = "Pick the API credential this share's analytics are attributed to.";
  return errors;
}

/** The PUT body for a valid draft. */
export function shareBody(draft: ShareDraft): ShareBody {
  const orNull = (value: string) => (value.trim() === "" ? null : value.trim());
  return {
    publicTitle: draft.publicTitle.trim(),
    publicSubtitle: orNull(draft.publicSubtitle),
    locale: orNull(draft.locale),
    ctaLabel: orNull(draft.ctaLabel),
    ctaUrl: orNull(draft.ctaUrl),
    personalizationData: parsePersonalizationData(draft.personalizationData).data,
    consentMode: draft.consentMode,
    apiCredentialId: draft.apiCredentialId,
  };
}

/** Adds a key to the data's JSON (keeping what is there), for the template's field hints. */
export function withDataKey(text: string, key: string, value: string): string {
  const current = parsePersonalizationData(text);
  const data = current.error ? {} : (current.data ?? {});
  if (key in data) return text;
  return JSON.stringify({ ...data, [key]: value }, null, 2);
}
