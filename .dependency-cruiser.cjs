// The import structure, checked by `npm run lint:imports` (dependency-cruiser; part of
// `npm test`'s lint step). docs/architecture.md, "Layers", says what each layer holds.
//
// - No import cycle anywhere, type-only imports included.
// - Browser bundles (browser/) and the code they share with the server (shared/) reach no
//   server module; server code does not import the bundles. ESLint refuses the direct imports
//   as they are typed (eslint.config.mjs); this checks what is reachable.
// - Layers, top to bottom: entry (app/, proxy.ts, instrumentation.ts), transport (HTTP, console,
//   CLI, start-up), domain (the product's verbs), base (database, errors, config, jobs). An import
//   from a layer up to a higher one is refused; those that existed when the check was added are
//   listed in .dependency-cruiser-known-violations.json (refresh it with `npm run
//   lint:imports:baseline` only after removing some: the list may shrink, never grow).

const entry = "^(app/|proxy\\.ts$|instrumentation\\.ts$)";
const transport = "^lib/(api|console|cli|server|bootstrap|security)/";
const domain =
  "^lib/(accounts|analytics|audit|auth|campaigns|credentials|embed|idempotency|ingest|renders|shares|skottie|storage|templates|tokens|uploadthing|webhooks)/|^lib/client-address\\.ts$";
const base = "^lib/(db/|jobs/|errors\\.ts$|error-code\\.ts$|config\\.ts$|process-wide\\.ts$)";
const tests = "\\.test\\.tsx?$|^testing/|^e2e/|^reliability/|^bench/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules that import each other (even for types) cannot be read, tested or moved one at a time.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "browser-reaches-server",
      comment: "browser/ and shared/ are bundled for the browser: nothing they reach may be server code.",
      severity: "error",
      from: { path: "^(browser|shared)/", pathNot: tests },
      to: { path: "^(lib|app|testing)/|^(proxy|instrumentation)\\.ts$", reachable: true },
    },
    {
      name: "client-reaches-server",
      comment: "client/ is the typed API client users import in Node.js and browsers: it reaches only its generated types and npm packages, never the server, the bundles or test support.",
      severity: "error",
      from: { path: "^client/", pathNot: tests },
      to: { path: "^(lib|app|browser|shared|components|testing|scripts)/|^(proxy|instrumentation)\\.ts$", reachable: true },
    },
    {
      name: "server-imports-browser",
      comment: "The bundles are built by scripts/build-browser.mjs and served as files; server code does not import them.",
      severity: "error",
      from: { path: "^(lib|app)/", pathNot: tests },
      to: { path: "^browser/" },
    },
    {
      name: "product-imports-test-support",
      comment: "testing/ is for tests, benchmarks and scripts; the product never loads it.",
      severity: "error",
      from: { path: "^(lib|app|browser|shared)/", pathNot: tests },
      to: { path: "^testing/" },
    },
    {
      name: "domain-imports-up",
      comment: "A verb does not know how it is called: no HTTP, console, CLI or route module below app/ and lib/api.",
      severity: "error",
      from: { path: domain, pathNot: tests },
      to: { path: `${transport}|${entry}` },
    },
    {
      name: "base-imports-up",
      comment: "The database, errors, config and job helpers depend on nothing of the product.",
      severity: "error",
      from: { path: base, pathNot: tests },
      to: { path: `${domain}|${transport}|${entry}` },
    },
    {
      name: "transport-imports-entry",
      comment: "Routes and pages use the transport layer, not the other way round.",
      severity: "error",
      from: { path: transport, pathNot: tests },
      to: { path: entry },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(\\.next|node_modules|public|client/dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};
