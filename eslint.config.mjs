// Lint: Next's core-web-vitals rules (React, hooks, accessibility, Next), typescript-eslint's
// recommended rules, and this codebase's own: errors are told apart by code, never instanceof
// (lib/error-code.ts says why), and rooms by runtime (docs/adr/0137-browser-and-shared-rooms.md).
// `npm run lint` runs it with zero warnings allowed.
import { builtinModules } from "node:module";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/** The top-level folders of code. browser/ and shared/ are bundled for browsers; the others run in Node.js. */
const rooms = ["app", "bench", "bin", "browser", "client", "components", "e2e", "lib", "reliability", "scripts", "shared", "testing"];
/** An import of one of `targets` (top-level folders), by alias (`@/lib/…`) or by a relative path that climbs to it (`../../lib/…`). */
const importOf = (targets) => `^(@/|(\\.\\./)+)(${targets.join("|")})(/|$)`;
const roomsBut = (...allowed) => rooms.filter((room) => !allowed.includes(room));
const nodeBuiltin = `^(node:|(${builtinModules.join("|")})(/|$))`;
/** Tests run in Node.js and may check the bundles against the server's code (the ingest validator, fixtures). */
const tests = ["**/*.test.ts"];
const restrictImports = (patterns) => ["error", { patterns }];
const noBundleImports =
  "browser/ holds the bundles scripts/build-browser.mjs builds for browsers: server and console code must not import them (what both sides need belongs in shared/).";

/**
 * The service layer's verb modules (docs/adr/0143-service-verbs.md): their verbs change data only
 * through `ctx.write`, which opens the transaction and records the audit row.
 */
const verbModules = [
  // webhooks
  "lib/webhooks/endpoints.ts",
  "lib/webhooks/deliveries.ts",
  "lib/webhooks/signing-secret.ts",
  // credentials (verify-credential.ts is not one: a customer server's credential, no actor; its lastUsedAt touch is bookkeeping)
  "lib/credentials/credentials.ts",
  // shares
  "lib/shares/shares.ts",
  // templates
  "lib/templates/templates.ts",
  "lib/templates/template-outline.ts",
  "lib/templates/lifecycle.ts",
  "lib/templates/upload-template.ts",
  "lib/templates/preview.ts",
  "lib/templates/upload-sessions/sessions.ts",
  "lib/templates/upload-sessions/complete.ts",
  // renders
  "lib/renders/renders.ts",
  "lib/renders/campaign-thumbnails.ts",
  // campaigns (import-recipients.ts is not a verb module: an import is a long-running job whose
  // batches commit one by one, each in its own transaction, so that a stopped import resumes)
  "lib/campaigns/campaigns.ts",
  "lib/campaigns/recipients.ts",
  "lib/campaigns/get-campaign-funnel.ts",
  "lib/campaigns/upload-recipients.ts",
  "lib/campaigns/recipient-edits.ts",
  "lib/campaigns/preview-import.ts",
  // audit and analytics (reads; the reports' snapshot is analytics/snapshot.ts, read-only; the rollup job in analytics/rollups/ is background work, not a verb)
  "lib/audit/list-audit-events.ts",
  "lib/analytics/get-project-analytics.ts",
  "lib/analytics/get-engagement-heatmap.ts",
  "lib/analytics/get-quarantine-report.ts",
  // accounts (personal-access-tokens.ts: the account verbs on one's own tokens, whose changes
  // belong to no organization's trail: docs/adr/0143-service-verbs.md)
  "lib/accounts/organizations.ts",
  "lib/accounts/personal-access-tokens.ts",
  "lib/accounts/invitations.ts",
  "lib/accounts/operator.ts",
];

/** A room whose code runs in browsers and on servers alike: only its own files, npm packages and no Node.js built-ins. */
const portableRoom = (room, what) => ({
  files: [`${room}/**`],
  ignores: tests,
  rules: {
    "no-restricted-imports": restrictImports([
      { regex: importOf(roomsBut(room)), message: `${room}/ ${what}: import only ${room}/ and npm packages.` },
      { regex: nodeBuiltin, message: `${room}/ runs in browsers too, which have no Node.js built-in modules.` },
    ]),
  },
});

const instanceofErrors = {
  selector: "BinaryExpression[operator='instanceof'][right.name=/.+Error$|Exception$/]",
  message: "Tell errors apart by code (isAppError, hasErrorCode in lib/error-code.ts): Next bundles a module once per route, so classes are duplicated.",
};

const writeOutsideCtxWrite =
  "A verb changes data only inside ctx.write (lib/services/verbs.ts): it opens the transaction and records the audit row, and its callback must return audited(result, change).";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", "node_modules/**", "public/sdk/**", "public/player/**", "public/api-reference/**", "next-env.d.ts", ".reelbind/**", "test-results/**", "playwright-report/**", "client/dist/**"]),
  {
    // Playwright's fixtures call `use`, and benchmark helpers may start with "use": not React hooks.
    files: ["e2e/**", "bench/**", "scripts/**", "**/*.test.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    rules: {
      "no-restricted-syntax": ["error", instanceofErrors],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["browser/**"],
    ignores: tests,
    rules: {
      "no-restricted-imports": restrictImports([
        {
          regex: importOf(roomsBut("browser", "shared")),
          message: "browser/ is bundled for the player iframe and customers' pages: import only browser/, shared/ and npm packages (move what the server also needs to shared/).",
        },
        { regex: nodeBuiltin, message: "browser/ runs in browsers, which have no Node.js built-in modules." },
      ]),
    },
  },
  portableRoom("shared", "runs both in the browser bundles and on the server (server code stays in lib/, browser code in browser/)"),
  portableRoom("client", "is the typed API client users import in Node.js and browsers (docs/adr/0145-typed-api-client.md)"),
  {
    // One block per set of files: a later block's options for the same rule replace an earlier one's.
    files: ["lib/**", "app/**", "components/**", "scripts/**"],
    ignores: tests,
    rules: {
      "no-restricted-imports": restrictImports([
        { regex: importOf(["browser"]), message: noBundleImports },
      ]),
    },
  },
  {
    // Test support stays out of the app (docs/adr/0138-one-folder-for-test-support-and-names.md).
    files: ["lib/**", "app/**", "components/**"],
    ignores: tests,
    rules: {
      "no-restricted-imports": restrictImports([
        { regex: importOf(["browser"]), message: noBundleImports },
        { regex: importOf(["testing"]), message: "testing/ is test support: only test files may import it." },
      ]),
    },
  },
  {
    files: verbModules,
    rules: {
      "no-restricted-syntax": [
        "error",
        instanceofErrors,
        { selector: "CallExpression[callee.property.name=/^(insert|update|delete|transaction)$/][callee.object.name='db']", message: writeOutsideCtxWrite },
        { selector: "CallExpression[callee.property.name=/^(insert|update|delete|transaction)$/][callee.object.property.name='db']", message: writeOutsideCtxWrite },
      ],
      "no-restricted-imports": restrictImports([
        { regex: importOf(["browser"]), message: noBundleImports },
        { regex: importOf(["testing"]), message: "testing/ is test support: only test files may import it." },
        { regex: "^@/lib/audit/record-audit-event$", message: writeOutsideCtxWrite },
      ]),
    },
  },
]);
