// `{{field}}` and `{{field|default}}` in a share's title, subtitle and call-to-action label,
// filled with the viewer's data (a campaign recipient's, an embed session's, or the share's own).
// Browser-safe: the console previews a title with the same function the pages use.

/**
 * A placeholder: a field key as the binding manifest spells one (letters, digits, underscores,
 * not starting with a digit), then optionally `|` and a default without braces or bars; spaces
 * around each part are allowed. Anything else between braces is not a placeholder and stays.
 */
const placeholder = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|([^{}|]*))?\}\}/g;

/**
 * The text with every placeholder replaced by its field's value; a field that is missing or
 * blank takes the placeholder's default (trimmed), else nothing. Plain text in, plain text out:
 * escaping is the renderer's (React and Next's metadata escape what they write).
 */
export function fillPlaceholders(text: string, data: Readonly<Record<string, string>>): string {
  return text.replace(placeholder, (_whole, key: string, fallback: string | undefined) => {
    const value = Object.hasOwn(data, key) ? data[key] : undefined;
    return value !== undefined && value.trim() !== "" ? value : (fallback?.trim() ?? "");
  });
}

/** Whether the text has a placeholder to fill: the console shows a preview line only then. */
export function hasPlaceholders(text: string): boolean {
  return new RegExp(placeholder.source).test(text);
}
