import { describe, expect, it } from "vitest";
import { config } from "@/proxy";
import { isWellEncodedPath } from "./path-encoding";
import { directUploadOrigins, mintNonce, pagePolicy } from "./page-policy";

const scriptSrc = (policy: string) => policy.split("; ").find((directive) => directive.startsWith("script-src "))!;

describe("pagePolicy", () => {
  it("pagePolicy – scripts: the nonce and 'strict-dynamic' only", () => {
    expect(scriptSrc(pagePolicy({ nonce: "abc=", dev: false }))).toBe("script-src 'self' 'nonce-abc=' 'strict-dynamic'");
  });

  it.each([
    { case: "INGEST_BASE_URL unset", ingestBaseUrl: undefined, connectSrc: "connect-src 'self'" },
    { case: "INGEST_BASE_URL on another host", ingestBaseUrl: "https://ingest.example.com/base/", connectSrc: "connect-src 'self' https://ingest.example.com" },
    { case: "INGEST_BASE_URL not a URL", ingestBaseUrl: "not a url", connectSrc: "connect-src 'self'" },
  ])("pagePolicy – connect-src with $case", ({ ingestBaseUrl, connectSrc }) => {
    expect(pagePolicy({ nonce: "n", ingestBaseUrl, dev: false }).split("; ")).toContain(connectSrc);
  });

  it.each([
    { case: "local storage", env: {}, origins: [] },
    { case: "S3 on AWS", env: { STORAGE_DRIVER: "s3", S3_BUCKET: "clips", S3_REGION: "eu-west-1" }, origins: ["https://clips.s3.eu-west-1.amazonaws.com", "https://s3.eu-west-1.amazonaws.com"] },
    { case: "S3-compatible, path style", env: { STORAGE_DRIVER: "s3", S3_BUCKET: "clips", S3_ENDPOINT: "http://127.0.0.1:9000/", S3_FORCE_PATH_STYLE: "1" }, origins: ["http://127.0.0.1:9000"] },
    { case: "S3-compatible, virtual hosts", env: { STORAGE_DRIVER: "s3", S3_BUCKET: "clips", S3_ENDPOINT: "https://r2.example.com" }, origins: ["https://clips.r2.example.com"] },
    { case: "S3 with UPLOAD_MODE=server", env: { STORAGE_DRIVER: "s3", S3_BUCKET: "clips", UPLOAD_MODE: "server" }, origins: [] },
    { case: "UploadThing, hosted", env: { UPLOADTHING_TOKEN: "t" }, origins: ["https://*.ingest.uploadthing.com"] },
    { case: "UploadThing, self-hosted", env: { UPLOADTHING_TOKEN: "t", UPLOADTHING_INGEST_URL: "http://127.0.0.1:7000/x" }, origins: ["http://127.0.0.1:7000"] },
  ])("directUploadOrigins – $case", ({ env, origins }) => {
    expect(directUploadOrigins(env)).toEqual(origins);
    expect(pagePolicy({ nonce: "n", uploadOrigins: origins, dev: false }).split("; ")).toContain(["connect-src 'self'", ...origins].join(" "));
  });

  it("mintNonce – 128 bits of base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, mintNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("isWellEncodedPath and the proxy's matcher", () => {
  // The proxy runs on paths with "%" only when the escape may not decode (proxy.ts says why): this is that pattern.
  const suspiciousEscape = new RegExp(`^${(config.matcher[1] as string).slice(2, -1)}$`);

  it.each([
    { path: "/v/%E0%A4%A", wellEncoded: false },
    { path: "/api/Projects/%C0%AF/templates", wellEncoded: false },
    { path: "/api/previews/%E0%A4%A.png", wellEncoded: false },
    { path: "/login/%", wellEncoded: false },
    { path: "/login/%ZZ", wellEncoded: false },
    { path: "/login/%FF", wellEncoded: false },
    { path: "/v/abc", wellEncoded: true },
    { path: "/api/Projects/%41/templates", wellEncoded: true },
    { path: "/v/caf%C3%A9", wellEncoded: true },
  ])("isWellEncodedPath – $path", ({ path, wellEncoded }) => {
    expect(isWellEncodedPath(path)).toBe(wellEncoded);
    // Every path that does not decode reaches the proxy.
    if (!wellEncoded) expect(suspiciousEscape.test(path)).toBe(true);
  });

  it.each(["/api/Projects/0b6f0c9e-0000-4000-8000-000000000000/templates/upload", "/api/Projects/%41/templates/upload"])(
    "matcher – %s, an API path that decodes to ASCII, does not run the proxy (its body is not buffered)",
    (path) => expect(suspiciousEscape.test(path)).toBe(false),
  );
});
