import { timestamp } from "drizzle-orm/pg-core";

/** Every timestamp is timestamptz, read as a JS Date (serialized as ISO 8601 UTC with milliseconds). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
