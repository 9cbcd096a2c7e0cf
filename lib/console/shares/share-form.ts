// The share form's rules as the user types (the server checks them again and its 422 errors are
// shown by field): the same limits as the API's PUT body (lib/shares/schema.ts, DESIGN §6).

export const shareLimits = { title: 160, subtitle: 280, ctaLabel: 80, personalizationBytes: 16 * 1024 } as const;

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

/** Characters as the server counts them (code points: an emoji is one). */
export const characters = (value: string) => [...value.trim()].length;

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
  if (new TextEncoder().encode(JSON.stringify(value)).length > shareLimits.personalizationBytes) return { data: null, error: "Must be at most 16 KB as JSON." };
  return { data: value as Record<string, unknown>, error: null };
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Field → message for what the server would refuse; empty when the draft can be sent. */
export function validateShareDraft(draft: ShareDraft): Partial<Record<keyof ShareDraft, string>> {
  const errors: Partial<Record<keyof ShareDraft, string>> = {};
  const title = characters(draft.publicTitle);
  if (title === 0) errors.publicTitle = "A title is required.";
  else if (title > shareLimits.title) errors.publicTitle = `At most ${shareLimits.title} characters.`;
  if (characters(draft.publicSubtitle) > shareLimits.subtitle) errors.publicSubtitle = `At most ${shareLimits.subtitle} characters.`;
  if (draft.locale.trim() && !/^[a-z]{2}-[A-Z]{2}$/.test(draft.locale.trim())) errors.locale = "Language-REGION, e.g. en-US or pt-BR.";
  const label = draft.ctaLabel.trim();
  const url = draft.ctaUrl.trim();
  if (characters(label) > shareLimits.ctaLabel) errors.ctaLabel = `At most ${shareLimits.ctaLabel} characters.`;
  if (label && !url) errors.ctaUrl = "A button needs a link: give both or neither.";
  if (url && !label) errors.ctaLabel = "A link needs a button label: give both or neither.";
  if (url && !isHttpUrl(url)) errors.ctaUrl = "Must be an absolute http:// or https:// address.";
  const data = parsePersonalizationData(draft.personalizationData);
  if (data.error) errors.personalizationData = data.error;
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
