import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * rate-limiter-flexible's RateLimiterDrizzle store: points consumed per key until `expire`.
 * In the database so that every app process counts against the same limits.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamptz("expire"),
});
