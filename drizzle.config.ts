import { defineConfig } from "drizzle-kit";

// Migrations are generated with `npm run db:generate -- --name <what>` and applied at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
});
