// The preview body's limits, for the API's schema (preview-contract.ts) and the console's form.
// No zod here: a zod object schema in a browser bundle probes eval when it is built, and the
// console's CSP reports the probe as a violation (docs/adr/0082-security-checks.md).

/** Enough for a long text or a profile picture of several hundred kilobytes as a data URL. */
export const previewDataLimits = { maxKeys: 100, maxKeyLength: 200, maxValueLength: 1_000_000 } as const;
