/** The device types enrichment gives an event (enrich.ts); reports filter and group by them. */
export const deviceTypes = ["desktop", "mobile", "tablet", "tv", "console", "wearable", "bot", "other"] as const;
export type DeviceType = (typeof deviceTypes)[number];
