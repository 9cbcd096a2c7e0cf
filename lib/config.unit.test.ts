import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig, parseDurationSeconds, startUpWarnings } from "./config";

// parseConfig gets explicit env objects; process.env belongs to the test setup.

const tempDirs: string[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "reelbind-config-"));
  tempDirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const secrets = {
  TOKEN_SECRETS: "k1:0123456789abcdef0123456789abcdef",
  AUTH_SECRET: "auth-secret-0123456789abcdef0123456789",
};

/** An env with explicit secrets, so nothing is generated unless a test asks for it. */
function env(overrides: Record<string, string | undefined> = {}) {
  return { DATA_DIR: freshDataDir(), ...secrets, ...overrides };
}

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfig – defaults", () => {
  it("parseConfig – only secrets and DATA_DIR → documented defaults", () => {
    const input = env();
    expect(parseConfig(input)).toEqual({
      nodeEnv: "development",
      port: 3000,
      databaseUrl: undefined,
      dataDir: input.DATA_DIR,
      publicBaseUrl: "http://localhost:3000",
      ingestBaseUrl: "http://localhost:3000",
      tokenSecrets: [{ kid: "k1", secret: "0123456789abcdef0123456789abcdef" }],
      ingestTokenTtlSeconds: 24 * 3600,
      ingestProjectRate: 10_000,
      ingestAddressRate: 5_000,
      shareMissRate: 60,
      geoHeader: "CloudFront-Viewer-Country",
      trustedProxies: [],
      clientIpHeader: undefined,
      authSecret: secrets.AUTH_SECRET,
      generatedSecrets: false,
      bootstrapOnStart: true,
      rollupJob: true,
      storage: { driver: "local" },
      analyticsRetentionDays: 0,
      webhookAllowPrivate: false,
      ffmpegPath: "ffmpeg",
      renderConcurrency: Math.max(1, Math.floor(os.availableParallelism() / 2)),
      uploadMode: "server",
      uploadSessionTtlSeconds: 24 * 3600,
      uploadThing: null,
      mail: null,
      passwordResetTtlSeconds: 30 * 60,
    });
  });

  it("parseConfig – SMTP_URL → mail on, From at the public host unless MAIL_FROM", () => {
    expect(parseConfig(env({ SMTP_URL: "smtp://127.0.0.1:2525", PUBLIC_BASE_URL: "https://video.example.com" })).mail).toEqual({
      smtpUrl: "smtp://127.0.0.1:2525",
      from: "Reelbind <no-reply@video.example.com>",
    });
    expect(parseConfig(env({ SMTP_URL: "smtps://u:p@mail.example.com", MAIL_FROM: "Video <video@example.com>" })).mail?.from).toBe("Video <video@example.com>");
    expect(() => parseConfig(env({ SMTP_URL: "https://mail.example.com" }))).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
  });

  it.each([
    { case: "local storage", vars: {}, mode: "server" },
    { case: "S3", vars: { STORAGE_DRIVER: "s3", S3_BUCKET: "clips" }, mode: "direct" },
    { case: "S3 with UPLOAD_MODE=server", vars: { STORAGE_DRIVER: "s3", S3_BUCKET: "clips", UPLOAD_MODE: "server" }, mode: "server" },
    { case: "local with UPLOAD_MODE=direct", vars: { UPLOAD_MODE: "direct" }, mode: "direct" },
    { case: "an UploadThing token", vars: { UPLOADTHING_TOKEN: "token", STORAGE_DRIVER: "s3", S3_BUCKET: "clips" }, mode: "uploadthing" },
  ])("parseConfig – upload mode with $case → $mode", ({ vars, mode }) => {
    expect(parseConfig(env(vars)).uploadMode).toBe(mode);
  });

  it("parseConfig – UPLOADTHING_* and UPLOAD_SESSION_TTL → taken; UPLOAD_MODE=uploadthing without a token, a TTL without unit → refused", () => {
    expect(parseConfig(env({ UPLOADTHING_TOKEN: "t", UPLOADTHING_INGEST_URL: "http://127.0.0.1:7000", UPLOAD_SESSION_TTL: "2h" }))).toMatchObject({
      uploadThing: { token: "t", ingestUrl: "http://127.0.0.1:7000", apiUrl: undefined },
      uploadSessionTtlSeconds: 7200,
    });
    expect(() => parseConfig(env({ UPLOAD_MODE: "uploadthing" }))).toThrow(/UPLOADTHING_TOKEN: required when UPLOAD_MODE=uploadthing/);
    expect(() => parseConfig(env({ UPLOAD_SESSION_TTL: "10" }))).toThrow(/UPLOAD_SESSION_TTL/);
    expect(() => parseConfig(env({ UPLOAD_MODE: "ftp" }))).toThrow(/UPLOAD_MODE: must be server, direct or uploadthing/);
  });

  it("parseConfig – FFMPEG_PATH and RENDER_CONCURRENCY → taken; a concurrency that is not a whole number from 1 to 64 → refused", () => {
    expect(parseConfig(env({ FFMPEG_PATH: "/opt/ffmpeg/bin/ffmpeg", RENDER_CONCURRENCY: "3" }))).toMatchObject({ ffmpegPath: "/opt/ffmpeg/bin/ffmpeg", renderConcurrency: 3 });
    for (const value of ["0", "1.5", "65", "many"]) {
      expect(() => parseConfig(env({ RENDER_CONCURRENCY: value }))).toThrow("RENDER_CONCURRENCY: must be a whole number of renders from 1 to 64");
    }
  });

  it("parseConfig – PORT 4000 → both base URLs follow the port", () => {
    const config = parseConfig(env({ PORT: "4000" }));
    expect([config.port, config.publicBaseUrl, config.ingestBaseUrl]).toEqual([4000, "http://localhost:4000", "http://localhost:4000"]);
  });

  it("parseConfig – PUBLIC_BASE_URL with a trailing slash → stripped, and INGEST_BASE_URL defaults to it", () => {
    const config = parseConfig(env({ PUBLIC_BASE_URL: "https://videos.example.com/" }));
    expect([config.publicBaseUrl, config.ingestBaseUrl]).toEqual(["https://videos.example.com", "https://videos.example.com"]);
  });

  it("parseConfig – INGEST_BASE_URL set → kept apart from PUBLIC_BASE_URL", () => {
    const config = parseConfig(env({ PUBLIC_BASE_URL: "https://videos.example.com", INGEST_BASE_URL: "https://ingest.example.com//" }));
    expect([config.publicBaseUrl, config.ingestBaseUrl]).toEqual(["https://videos.example.com", "https://ingest.example.com"]);
  });

  it("parseConfig – several TOKEN_SECRETS → kept in order, the first one signs", () => {
    const config = parseConfig(
      env({ TOKEN_SECRETS: " new:abcdefghijklmnopqrstuvwxyz012345 , old:0123456789abcdef0123456789abcdef:x " }),
    );
    expect(config.tokenSecrets).toEqual([
      { kid: "new", secret: "abcdefghijklmnopqrstuvwxyz012345" },
      { kid: "old", secret: "0123456789abcdef0123456789abcdef:x" },
    ]);
  });

  it("parseConfig – relative DATA_DIR → resolved against the working directory", () => {
    expect(parseConfig({ ...secrets, DATA_DIR: "./somewhere" }).dataDir).toBe(path.resolve("somewhere"));
  });

  it("parseConfig – empty variables (PORT=, DATABASE_URL=, PUBLIC_BASE_URL=) → treated as unset", () => {
    const config = parseConfig(env({ PORT: "", DATABASE_URL: "", PUBLIC_BASE_URL: "", INGEST_TOKEN_TTL: "" }));
    expect([config.port, config.databaseUrl, config.publicBaseUrl, config.ingestTokenTtlSeconds]).toEqual([
      3000,
      undefined,
      "http://localhost:3000",
      86_400,
    ]);
  });

  it("parseConfig – INGEST_PROJECT_RATE and INGEST_ADDRESS_RATE, fractions included → passed through", () => {
    const config = parseConfig(env({ INGEST_PROJECT_RATE: "250000", INGEST_ADDRESS_RATE: "0.001" }));
    expect([config.ingestProjectRate, config.ingestAddressRate]).toEqual([250_000, 0.001]);
  });

  it.each([
    { value: "loopback", trusted: ["loopback"] },
    { value: " 10.0.0.0/8 , loopback,fd00::/8 ", trusted: ["10.0.0.0/8", "loopback", "fd00::/8"] },
    { value: "192.0.2.7, 198.51.100.0/255.255.255.0", trusted: ["192.0.2.7", "198.51.100.0/255.255.255.0"] },
    { value: "linklocal,uniquelocal", trusted: ["linklocal", "uniquelocal"] },
    { value: "1", trusted: 1 },
    { value: "0", trusted: 0 },
  ])("parseConfig – TRUSTED_PROXIES=$value → $trusted", ({ value, trusted }) => {
    expect(parseConfig(env({ TRUSTED_PROXIES: value })).trustedProxies).toEqual(trusted);
  });

  it.each([
    { value: "CF-Connecting-IP", header: "CF-Connecting-IP" },
    { value: "x-forwarded-for", header: undefined },
    { value: "X-Forwarded-For", header: undefined },
  ])("parseConfig – CLIENT_IP_HEADER=$value → $header (X-Forwarded-For is read as a chain anyway)", ({ value, header }) => {
    expect(parseConfig(env({ CLIENT_IP_HEADER: value })).clientIpHeader).toBe(header);
  });

  it("parseConfig – SHARE_MISS_RATE=5 → passed through", () => {
    expect(parseConfig(env({ SHARE_MISS_RATE: "5" })).shareMissRate).toBe(5);
  });

  it.each([
    { value: "0", days: 0 },
    { value: "400", days: 400 },
    { value: " 90 ", days: 90 },
    { value: "36500", days: 36_500 },
  ])("parseConfig – ANALYTICS_RETENTION_DAYS=$value → $days days", ({ value, days }) => {
    expect(parseConfig(env({ ANALYTICS_RETENTION_DAYS: value })).analyticsRetentionDays).toBe(days);
  });

  it("parseConfig – WEBHOOK_ALLOW_PRIVATE=1 → webhooks may reach private addresses; 2 → refused", () => {
    expect(parseConfig(env({ WEBHOOK_ALLOW_PRIVATE: "1" })).webhookAllowPrivate).toBe(true);
    expect(() => parseConfig(env({ WEBHOOK_ALLOW_PRIVATE: "2" }))).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it("parseConfig – DATABASE_URL and REELBIND_BOOTSTRAP=0 → passed through", () => {
    const config = parseConfig(env({ DATABASE_URL: "postgresql://db.internal/reelbind", REELBIND_BOOTSTRAP: "0" }));
    expect([config.databaseUrl, config.bootstrapOnStart]).toEqual(["postgresql://db.internal/reelbind", false]);
  });
});

describe("parseConfig – invalid variables", () => {
  it("parseConfig – bad PORT, DATABASE_URL and TOKEN_SECRETS together → one ConfigError listing all three", () => {
    const message = configError(() =>
      parseConfig(env({ PORT: "http", DATABASE_URL: "mysql://db/reelbind", TOKEN_SECRETS: "k1:short" })),
    );
    expect(message).toMatch(/^Invalid configuration:/);
    const listed = message.split("\n").slice(1).map((line) => line.trim().split(":")[0]);
    expect(listed).toEqual(["- PORT", "- DATABASE_URL", "- TOKEN_SECRETS"]);
  });

  it.each([
    { variable: "PORT", value: "0" },
    { variable: "PORT", value: "65536" },
    { variable: "PORT", value: "80.5" },
    { variable: "DATABASE_URL", value: "localhost:5432/reelbind" },
    { variable: "PUBLIC_BASE_URL", value: "ftp://videos.example.com" },
    { variable: "PUBLIC_BASE_URL", value: "not a url" },
    { variable: "INGEST_BASE_URL", value: "videos.example.com" },
    { variable: "TOKEN_SECRETS", value: "0123456789abcdef0123456789abcdef" },
    { variable: "TOKEN_SECRETS", value: ":0123456789abcdef0123456789abcdef" },
    { variable: "TOKEN_SECRETS", value: "k1:0123456789abcdef0123456789abcdef,k2:short" },
    { variable: "TOKEN_SECRETS", value: " , " },
    { variable: "INGEST_TOKEN_TTL", value: "15" },
    { variable: "INGEST_TOKEN_TTL", value: "-5m" },
    { variable: "INGEST_TOKEN_TTL", value: "5 parsecs" },
    { variable: "INGEST_PROJECT_RATE", value: "0" },
    { variable: "INGEST_PROJECT_RATE", value: "-10" },
    { variable: "INGEST_PROJECT_RATE", value: "lots" },
    { variable: "INGEST_ADDRESS_RATE", value: "Infinity" },
    { variable: "INGEST_ADDRESS_RATE", value: "1e10" },
    { variable: "SHARE_MISS_RATE", value: "0" },
    { variable: "SHARE_MISS_RATE", value: "many" },
    { variable: "TRUSTED_PROXIES", value: "10.0.0.300" },
    { variable: "TRUSTED_PROXIES", value: "0.0.0.0/0" },
    { variable: "TRUSTED_PROXIES", value: "10.0.0.0/33" },
    { variable: "TRUSTED_PROXIES", value: "true" },
    { variable: "TRUSTED_PROXIES", value: "-1" },
    { variable: "TRUSTED_PROXIES", value: "loopback 10.0.0.1" },
    { variable: "CLIENT_IP_HEADER", value: "CF Connecting IP" },
    { variable: "AUTH_SECRET", value: "too-short" },
    { variable: "NODE_ENV", value: "staging" },
    { variable: "ALLOW_GENERATED_SECRETS", value: "true" },
    { variable: "REELBIND_BOOTSTRAP", value: "yes" },
    { variable: "STORAGE_DRIVER", value: "gcs" },
    { variable: "S3_ENDPOINT", value: "minio.internal:9000" },
    { variable: "S3_ENDPOINT", value: "ftp://minio.internal" },
    { variable: "S3_FORCE_PATH_STYLE", value: "true" },
  ])("parseConfig – $variable=$value → ConfigError naming $variable", ({ variable, value }) => {
    const message = configError(() => parseConfig(env({ [variable]: value })));
    expect(message).toContain(`- ${variable}: `);
    expect(message.split("\n")).toHaveLength(2);
  });
});

describe("parseConfig – ANALYTICS_RETENTION_DAYS", () => {
  it.each(["-1", "30.5", "13 months", "36501", "1e6", "Infinity"])("parseConfig – ANALYTICS_RETENTION_DAYS=%s → ConfigError saying what it must be", (value) => {
    expect(configError(() => parseConfig(env({ ANALYTICS_RETENTION_DAYS: value })))).toBe(
      "Invalid configuration:\n  - ANALYTICS_RETENTION_DAYS: must be a whole number of days from 0 (keep every event) to 36500",
    );
  });
});

describe("parseConfig – INGEST_TOKEN_TTL clamped to 15 min..48 h", () => {
  it.each([
    { ttl: "5m", seconds: 900 },
    { ttl: "0s", seconds: 900 },
    { ttl: "15m", seconds: 900 },
    { ttl: "3600s", seconds: 3600 },
    { ttl: "2h", seconds: 7200 },
    { ttl: "48h", seconds: 172_800 },
    { ttl: "72h", seconds: 172_800 },
    { ttl: "90000m", seconds: 172_800 },
    { ttl: "1d", seconds: 86_400 },
    { ttl: "1.5h", seconds: 5_400 },
  ])("parseConfig – INGEST_TOKEN_TTL=$ttl → $seconds s", ({ ttl, seconds }) => {
    expect(parseConfig(env({ INGEST_TOKEN_TTL: ttl })).ingestTokenTtlSeconds).toBe(seconds);
  });

  it.each([
    { value: "90s", seconds: 90 },
    { value: " 15m ", seconds: 900 },
    { value: "24h", seconds: 86_400 },
    { value: "1.5h", seconds: 5_400 },
    { value: "2 days", seconds: 172_800 },
    { value: "1500ms", seconds: 1 },
    { value: "0s", seconds: 0 },
    { value: "24", seconds: null },
    { value: "", seconds: null },
    { value: "-5m", seconds: null },
    { value: "5 parsecs", seconds: null },
    { value: "h", seconds: null },
  ])("parseDurationSeconds – '$value' → $seconds", ({ value, seconds }) => {
    expect(parseDurationSeconds(value)).toBe(seconds);
  });
});

describe("parseConfig – generated secrets", () => {
  it.each([
    { name: "no secrets", missing: ["TOKEN_SECRETS", "AUTH_SECRET"] },
    { name: "no AUTH_SECRET", missing: ["AUTH_SECRET"] },
    { name: "no TOKEN_SECRETS", missing: ["TOKEN_SECRETS"] },
  ])("parseConfig – production with $name → ConfigError, nothing written", ({ missing }) => {
    const input = env({ NODE_ENV: "production", ...Object.fromEntries(missing.map((name) => [name, undefined])) });
    expect(configError(() => parseConfig(input))).toContain("ALLOW_GENERATED_SECRETS=1");
    expect(existsSync(path.join(input.DATA_DIR, "secrets.json"))).toBe(false);
  });

  it("parseConfig – production with both secrets set → accepted without generating any", () => {
    const input = env({ NODE_ENV: "production" });
    expect(parseConfig(input).nodeEnv).toBe("production");
    expect(existsSync(path.join(input.DATA_DIR, "secrets.json"))).toBe(false);
  });

  it("parseConfig – production with ALLOW_GENERATED_SECRETS=1 → generated secrets in DATA_DIR", () => {
    const dataDir = freshDataDir();
    const config = parseConfig({ NODE_ENV: "production", ALLOW_GENERATED_SECRETS: "1", DATA_DIR: dataDir });
    const stored = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>;
    expect(config.authSecret).toBe(stored.authSecret);
  });

  it("parseConfig – no secrets in development → written to DATA_DIR/secrets.json, the same ones on the next parse", () => {
    const dataDir = path.join(freshDataDir(), "not-yet-created");
    const first = parseConfig({ DATA_DIR: dataDir });

    const file = path.join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { tokenSecrets: string; authSecret: string };
    expect(first.tokenSecrets).toHaveLength(1);
    expect(first.tokenSecrets[0]!.secret.length).toBeGreaterThanOrEqual(32);
    expect(`${first.tokenSecrets[0]!.kid}:${first.tokenSecrets[0]!.secret}`).toBe(stored.tokenSecrets);
    expect(first.authSecret).toBe(stored.authSecret);
    expect(first.authSecret.length).toBeGreaterThanOrEqual(32);

    const second = parseConfig({ DATA_DIR: dataDir });
    expect([second.tokenSecrets, second.authSecret]).toEqual([first.tokenSecrets, first.authSecret]);
  });

  it("parseConfig – two fresh DATA_DIRs → different generated secrets", () => {
    const a = parseConfig({ DATA_DIR: freshDataDir() });
    const b = parseConfig({ DATA_DIR: freshDataDir() });
    expect(a.authSecret).not.toBe(b.authSecret);
    expect(a.tokenSecrets[0]!.secret).not.toBe(b.tokenSecrets[0]!.secret);
  });

  it("parseConfig – TOKEN_SECRETS set but no AUTH_SECRET → only AUTH_SECRET comes from the file", () => {
    const dataDir = freshDataDir();
    const config = parseConfig({ DATA_DIR: dataDir, TOKEN_SECRETS: secrets.TOKEN_SECRETS });
    const stored = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>;
    expect(config.tokenSecrets).toEqual([{ kid: "k1", secret: "0123456789abcdef0123456789abcdef" }]);
    expect(config.authSecret).toBe(stored.authSecret);
  });
});

describe("startUpWarnings", () => {
  it.each([
    { name: "PGlite, generated secrets", input: { DATA_DIR: freshDataDir() }, warned: false },
    { name: "PostgreSQL, secrets set", input: env({ DATABASE_URL: "postgres://db.internal/reelbind" }), warned: false },
    { name: "PostgreSQL, generated secrets", input: { DATA_DIR: freshDataDir(), DATABASE_URL: "postgres://db.internal/reelbind" }, warned: true },
    { name: "PostgreSQL, AUTH_SECRET generated", input: { ...env({ DATABASE_URL: "postgres://db.internal/reelbind" }), AUTH_SECRET: undefined }, warned: true },
  ])("startUpWarnings – $name → warned: $warned", ({ input, warned }) => {
    const warnings = startUpWarnings(parseConfig(input));
    expect(warnings).toHaveLength(warned ? 1 : 0);
    if (warned) expect(warnings[0]).toMatch(/TOKEN_SECRETS and AUTH_SECRET .* same ones/);
  });

  it.each([
    { name: "CLIENT_IP_HEADER, no trusted proxy", vars: { CLIENT_IP_HEADER: "CF-Connecting-IP" }, warning: /CLIENT_IP_HEADER \(CF-Connecting-IP\) is ignored/ },
    { name: "CLIENT_IP_HEADER, a trusted proxy", vars: { CLIENT_IP_HEADER: "CF-Connecting-IP", TRUSTED_PROXIES: "10.0.0.0/8" }, warning: null },
    { name: "an https PUBLIC_BASE_URL, no trusted proxy", vars: { PUBLIC_BASE_URL: "https://videos.example.com" }, warning: /PUBLIC_BASE_URL is https.*TRUSTED_PROXIES trusts none/ },
    { name: "an https PUBLIC_BASE_URL, TRUSTED_PROXIES=0", vars: { PUBLIC_BASE_URL: "https://videos.example.com", TRUSTED_PROXIES: "0" }, warning: /TRUSTED_PROXIES trusts none/ },
    { name: "an https PUBLIC_BASE_URL, one hop trusted", vars: { PUBLIC_BASE_URL: "https://videos.example.com", TRUSTED_PROXIES: "1" }, warning: null },
    { name: "an http PUBLIC_BASE_URL, no trusted proxy", vars: { PUBLIC_BASE_URL: "http://videos.example.com" }, warning: null },
  ])("startUpWarnings – $name → $warning", ({ vars, warning }) => {
    const warnings = startUpWarnings(parseConfig(env(vars)));
    if (warning) expect(warnings).toEqual([expect.stringMatching(warning)]);
    else expect(warnings).toEqual([]);
  });
});

describe("parseConfig – blob storage", () => {
  const s3 = { STORAGE_DRIVER: "s3", S3_BUCKET: "reelbind-blobs" };

  it("parseConfig – STORAGE_DRIVER=s3 with every S3 variable → passed through", () => {
    const config = parseConfig(
      env({
        ...s3,
        S3_ENDPOINT: "http://minio.internal:9000",
        S3_REGION: "eu-central-1",
        S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
        S3_SECRET_ACCESS_KEY: "secret/example",
        S3_FORCE_PATH_STYLE: "1",
      }),
    );
    expect(config.storage).toEqual({
      driver: "s3",
      bucket: "reelbind-blobs",
      endpoint: "http://minio.internal:9000",
      region: "eu-central-1",
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret/example" },
      forcePathStyle: true,
    });
  });

  it("parseConfig – STORAGE_DRIVER=s3 with only S3_BUCKET → AWS in us-east-1, the SDK's credentials, virtual-hosted style", () => {
    expect(parseConfig(env(s3)).storage).toEqual({
      driver: "s3",
      bucket: "reelbind-blobs",
      endpoint: undefined,
      region: "us-east-1",
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it("parseConfig – empty STORAGE_DRIVER, S3_REGION, S3_FORCE_PATH_STYLE → treated as unset", () => {
    expect(parseConfig(env({ STORAGE_DRIVER: "" })).storage).toEqual({ driver: "local" });
    const config = parseConfig(env({ ...s3, S3_REGION: "", S3_FORCE_PATH_STYLE: "", S3_ENDPOINT: "" }));
    expect(config.storage).toMatchObject({ region: "us-east-1", forcePathStyle: false, endpoint: undefined });
  });

  it("parseConfig – STORAGE_DRIVER=local with S3 variables set → local, the S3 variables ignored", () => {
    expect(parseConfig(env({ ...s3, STORAGE_DRIVER: "local", S3_ACCESS_KEY_ID: "AKIAEXAMPLE" })).storage).toEqual({
      driver: "local",
    });
  });

  it.each([
    { name: "no S3_BUCKET", overrides: { STORAGE_DRIVER: "s3" }, variable: "S3_BUCKET" },
    { name: "an empty S3_BUCKET", overrides: { STORAGE_DRIVER: "s3", S3_BUCKET: "" }, variable: "S3_BUCKET" },
    { name: "S3_ACCESS_KEY_ID alone", overrides: { ...s3, S3_ACCESS_KEY_ID: "AKIAEXAMPLE" }, variable: "S3_SECRET_ACCESS_KEY" },
    { name: "S3_SECRET_ACCESS_KEY alone", overrides: { ...s3, S3_SECRET_ACCESS_KEY: "secret" }, variable: "S3_ACCESS_KEY_ID" },
  ])("parseConfig – STORAGE_DRIVER=s3 with $name → ConfigError naming $variable", ({ overrides, variable }) => {
    const message = configError(() => parseConfig(env(overrides)));
    expect(message).toContain(`- ${variable}: required when`);
    expect(message.split("\n")).toHaveLength(2);
  });

  it("parseConfig – STORAGE_DRIVER=s3 without a bucket or a secret key → one ConfigError listing both", () => {
    const message = configError(() => parseConfig(env({ STORAGE_DRIVER: "s3", S3_ACCESS_KEY_ID: "AKIAEXAMPLE" })));
    expect(message.split("\n").slice(1).map((line) => line.trim().split(":")[0])).toEqual([
      "- S3_BUCKET",
      "- S3_SECRET_ACCESS_KEY",
    ]);
  });
});
