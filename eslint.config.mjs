// Lint: Next's core-web-vitals rules (React, hooks, accessibility, Next), typescript-eslint's
// recommended rules, and this codebase's own: errors are told apart by code, never instanceof
// (lib/error-code.ts says why). `npm run lint` runs it with zero warnings allowed.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", "node_modules/**", "public/sdk/**", "public/player/**", "next-env.d.ts", ".reelbind/**", "test-results/**", "playwright-report/**"]),
  {
    // Playwright's fixtures call `use`, and benchmark helpers may start with "use": not React hooks.
    files: ["e2e/**", "bench/**", "scripts/**", "**/*.test.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Test support stays out of the app (docs/adr/0138-one-folder-for-test-support-and-names.md).
    files: ["lib/**", "app/**", "components/**"],
    ignores: ["**/*.test.ts", "**/*.unit.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(@/|(\\.\\./)+)testing(/|$)", message: "testing/ is test support: only test files may import it." }] },
      ],
    },
  },
  {
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "BinaryExpression[operator='instanceof'][right.name=/.+Error$|Exception$/]",
          message: "Tell errors apart by code (isAppError, hasErrorCode in lib/error-code.ts): Next bundles a module once per route, so classes are duplicated.",
        },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
]);
