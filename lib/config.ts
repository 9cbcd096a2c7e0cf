import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ms from "ms";
import proxyaddr from "proxy-addr";
import { z } from "zod";

// Environment is validated once, at first use, and fails with every problem listed.

const minIngestTtl = 15 * 60;
const maxIngestTtl = 48 * 3600;

/**
 * Parses a duration in ms's syntax ("90s", "15m", "1.5h", "1d") into whole seconds; null for
 * anything else. A bare number is refused: ms reads it as milliseconds, a reader as seconds.
 */
export function parseDurationSeconds(value: string): number | null {
  const text = value.trim();
  if (!/[a-z]$/i.test(text)) return null;
  const milliseconds = ms(text as ms.StringValue) as number | undefined;
  return milliseconds !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0 ? Math.floor(milliseconds / 1000) : null;
}

/** Events a second for an ingest limit: any positive number (a fraction is one event every few seconds). */
const eventRateSchema = (fallback: number) =>
  z.coerce.number({ error: "must be a number of events per second" }).positive("must be more than 0").max(1e9).default(fallback);

const maxRetentionDays = 36_500;
const retentionDaysMessage = `must be a whole number of days from 0 (keep every event) to ${maxRetentionDays}`;

const trustedProxiesMessage =
  "must be a number of proxy hops, or a comma-separated list of IP addresses, CIDR ranges and the names loopback, linklocal, uniquelocal";

/** TRUSTED_PROXIES: a hop count, or entries proxy-addr compiles (lib/client-address.ts); none trusted by default. */
const trustedProxiesSchema = z
  .string()
  .default("")
  .transform((value, ctx): number | string[] => {
    const text = value.trim();
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(",").map((entry) => entry.trim()).filter(Boolean);
    try {
      if (entries.length > 0) proxyaddr.compile(entries);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `${trustedProxiesMessage} (${(error as Error).message})` });
      return z.NEVER;
    }
    return entries;
  });

const tokenSecretsSchema = z
  .string()
  .transform((value, ctx) => {
    const entries = value.split(",").map((part) => part.trim()).filter(Boolean);
    const secrets: { kid: string; secret: string }[] = [];
    for (const entry of entries) {
      const colon = entry.indexOf(":");
      const kid = entry.slice(0, colon);
      const secret = entry.slice(colon + 1);
      if (colon <= 0 || secret.length < 32) {
        ctx.addIssue({ code: "custom", message: "each entry must be kid:secret with a secret of at least 32 characters" });
        return z.NEVER;
      }
      secrets.push({ kid, secret });
    }
    if (secrets.length === 0) {
      ctx.addIssue({ code: "custom", message: "at least one kid:secret entry is required" });
      return z.NEVER;
    }
    return secrets;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "must be a port number from 1 to 65535" }).int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  INGEST_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  TOKEN_SECRETS: tokenSecretsSchema.optional(),
  INGEST_TOKEN_TTL: z
    .string()
    .default("24h")
    .refine((value) => parseDurationSeconds(value) !== null, "must be a duration with a unit, like 15m, 24h, 1d or 3600s"),
  INGEST_PROJECT_RATE: eventRateSchema(10_000),
  INGEST_ADDRESS_RATE: eventRateSchema(5_000),
  SHARE_MISS_RATE: z.coerce.number({ error: "must be a number of unknown share links a minute" }).positive("must be more than 0").max(1e9).default(60),
  GEO_HEADER: z.string().min(1).default("CloudFront-Viewer-Country"),
  TRUSTED_PROXIES: trustedProxiesSchema,
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be an HTTP header name")
    .optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ALLOW_GENERATED_SECRETS: z.enum(["0", "1"]).default("0"),
  REELBIND_BOOTSTRAP: z.enum(["0", "1"]).default("1"),
  ROLLUP_JOB: z.enum(["0", "1"]).default("1"),
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(["0", "1"]).default("0"),
  FFMPEG_PATH: z.string().min(1).default("ffmpeg"),
  RENDER_CONCURRENCY: z.coerce
    .number({ error: "must be a whole number of renders from 1 to 64" })
    .int("must be a whole number of renders from 1 to 64")
    .min(1, "must be a whole number of renders from 1 to 64")
    .max(64, "must be a whole number of renders from 1 to 64")
    .optional(),
  ANALYTICS_RETENTION_DAYS: z.coerce
    .number({ error: retentionDaysMessage })
    .int(retentionDaysMessage)
    .min(0, retentionDaysMessage)
    .max(maxRetentionDays, retentionDaysMessage)
    .default(0),
  WEBHOOK_ALLOW_PRIVATE: z.enum(["0", "1"]).default("0"),
  UPLOAD_MODE: z.enum(["server", "direct", "uploadthing"], { error: "must be server, direct or uploadthing" }).optional(),
  UPLOAD_SESSION_TTL: z
    .string()
    .default("24h")
    .refine((value) => (parseDurationSeconds(value) ?? 0) >= 1, "must be a duration with a unit, like 15m, 24h, 1d or 3600s"),
  UPLOADTHING_TOKEN: z.string().optional(),
  UPLOADTHING_INGEST_URL: z.url({ protocol: /^https?$/ }).optional(),
  UPLOADTHING_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL, like smtps://user:password@mail.example.com:465" }).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  PASSWORD_RESET_TTL: z
    .string()
    .default("30m")
    .refine((value) => (parseDurationSeconds(value) ?? 0) >= 1, "must be a duration with a unit, like 15m, 30m or 1h"),
});

/** Where template files live: files under DATA_DIR/blobs, or a bucket on an S3-compatible service. */
export type StorageConfig =
  | { driver: "local" }
  | {
      driver: "s3";
      bucket: string;
      endpoint: string | undefined;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

export type Config = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  ingestBaseUrl: string;
  tokenSecrets: { kid: string; secret: string }[];
  ingestTokenTtlSeconds: number;
  /** Events a second one project may send, whatever tokens and addresses they come with (lib/ingest/rate-limit.ts). */
  ingestProjectRate: number;
  /** Events a second one client address (lib/client-address.ts) may send, whatever tokens and projects. */
  ingestAddressRate: number;
  /** Unknown share slugs one client address may look up a minute (lib/shares/share-lookup-limit.ts). */
  shareMissRate: number;
  geoHeader: string;
  /**
   * The proxies whose X-Forwarded-For the app believes (lib/client-address.ts): that many hops in
   * front of it, or these addresses, CIDR ranges and proxy-addr names; none by default.
   */
  trustedProxies: number | string[];
  /** A header holding one client address that a trusted proxy sets (CF-Connecting-IP…), read before X-Forwarded-For; none by default. */
  clientIpHeader: string | undefined;
  authSecret: string;
  /** TOKEN_SECRETS or AUTH_SECRET came from DATA_DIR/secrets.json, not the environment. */
  generatedSecrets: boolean;
  bootstrapOnStart: boolean;
  /** Whether this process runs the analytics rollup job (off: another process of the same database does, or nothing: reports then roll up their tail only). */
  rollupJob: boolean;
  storage: StorageConfig;
  /** Raw analytics events are kept this many days, dropped a whole month at a time; 0 keeps them all (lib/analytics/partitions.ts). */
  analyticsRetentionDays: number;
  /** Webhook URLs may point at private, loopback and link-local addresses (tests; lib/webhooks/url-safety.ts). */
  webhookAllowPrivate: boolean;
  /** The ffmpeg binary renders run (ffprobe is taken from beside it). */
  ffmpegPath: string;
  /** Renders one process runs at once (lib/renders/queue.ts). */
  renderConcurrency: number;
  /** How the console sends template files (docs/direct-uploads.md): one request to the app, upload sessions, or UploadThing. */
  uploadMode: "server" | "direct" | "uploadthing";
  /** Open upload sessions are swept this long after they were created. */
  uploadSessionTtlSeconds: number;
  /** UploadThing, when UPLOADTHING_TOKEN is set; the URLs point at a self-hosted compatible server. */
  uploadThing: { token: string; ingestUrl: string | undefined; apiUrl: string | undefined } | null;
  /**
   * Outgoing mail (lib/mail): SMTP_URL and the From address; null without SMTP_URL, when links
   * are shown to the admin and written to the server log instead.
   */
  mail: { smtpUrl: string; from: string } | null;
  /** How long a password-reset link works (PASSWORD_RESET_TTL, 30 minutes by default). */
  passwordResetTtlSeconds: number;
};

export class ConfigError extends Error {
  readonly code = "CONFIG_INVALID";
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type GeneratedSecrets = { tokenSecrets: string; authSecret: string };

/** Dev secrets live in DATA_DIR so that restarts keep sessions and tokens valid. */
function loadOrGenerateSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, "secrets.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as GeneratedSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secrets: GeneratedSecrets = {
    tokenSecrets: `k1:${randomBytes(32).toString("base64url")}`,
    authSecret: randomBytes(32).toString("base64url"),
  };
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
    return secrets;
  } catch (error) {
    // Another process generated them first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return JSON.parse(readFileSync(file, "utf8")) as GeneratedSecrets;
    }
    throw error;
  }
}

function parseStorageConfig(e: z.infer<typeof envSchema>): StorageConfig {
  if (e.STORAGE_DRIVER === "local") return { driver: "local" };
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = e;
  const problems: string[] = [];
  if (!bucket) problems.push("S3_BUCKET: required when STORAGE_DRIVER=s3");
  // A lone key would silently fall back to the SDK's default chain: refuse it instead.
  if (accessKeyId && !secretAccessKey) problems.push("S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set");
  if (secretAccessKey && !accessKeyId) problems.push("S3_ACCESS_KEY_ID: required when S3_SECRET_ACCESS_KEY is set");
  if (!bucket || problems.length > 0) throw new ConfigError(problems);
  return {
    driver: "s3",
    bucket,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === "1",
  };
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable (FOO=) means "not set", as in most shells' and dotenv's usage.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const e = parsed.data;
  const storage = parseStorageConfig(e);
  if (e.UPLOAD_MODE === "uploadthing" && !e.UPLOADTHING_TOKEN) throw new ConfigError(["UPLOADTHING_TOKEN: required when UPLOAD_MODE=uploadthing"]);
  const dataDir = path.resolve(e.DATA_DIR);
  const needsGenerated = !e.TOKEN_SECRETS || !e.AUTH_SECRET;
  if (needsGenerated && e.NODE_ENV === "production" && e.ALLOW_GENERATED_SECRETS !== "1") {
    throw new ConfigError([
      "TOKEN_SECRETS and AUTH_SECRET must be set in production (or set ALLOW_GENERATED_SECRETS=1 to keep generated ones in DATA_DIR)",
    ]);
  }
  const generated = needsGenerated ? loadOrGenerateSecrets(dataDir) : undefined;
  const tokenSecrets = e.TOKEN_SECRETS ?? tokenSecretsSchema.parse(generated!.tokenSecrets);
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const ttl = parseDurationSeconds(e.INGEST_TOKEN_TTL)!;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    publicBaseUrl,
    ingestBaseUrl: (e.INGEST_BASE_URL ?? publicBaseUrl).replace(/\/+$/, ""),
    tokenSecrets,
    ingestTokenTtlSeconds: Math.min(maxIngestTtl, Math.max(minIngestTtl, ttl)),
    ingestProjectRate: e.INGEST_PROJECT_RATE,
    ingestAddressRate: e.INGEST_ADDRESS_RATE,
    shareMissRate: e.SHARE_MISS_RATE,
    geoHeader: e.GEO_HEADER,
    trustedProxies: e.TRUSTED_PROXIES,
    // X-Forwarded-For is read anyway, as a chain of hops: naming it changes nothing.
    clientIpHeader: e.CLIENT_IP_HEADER?.toLowerCase() === "x-forwarded-for" ? undefined : e.CLIENT_IP_HEADER,
    authSecret: e.AUTH_SECRET ?? generated!.authSecret,
    generatedSecrets: needsGenerated,
    bootstrapOnStart: e.REELBIND_BOOTSTRAP === "1",
    rollupJob: e.ROLLUP_JOB === "1",
    storage,
    analyticsRetentionDays: e.ANALYTICS_RETENTION_DAYS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === "1",
    ffmpegPath: e.FFMPEG_PATH,
    // A render keeps one core busy drawing frames and ffmpeg most of another.
    renderConcurrency: e.RENDER_CONCURRENCY ?? Math.max(1, Math.floor(os.availableParallelism() / 2)),
    uploadMode: e.UPLOAD_MODE ?? (e.UPLOADTHING_TOKEN ? "uploadthing" : storage.driver === "s3" ? "direct" : "server"),
    uploadSessionTtlSeconds: parseDurationSeconds(e.UPLOAD_SESSION_TTL)!,
    uploadThing: e.UPLOADTHING_TOKEN ? { token: e.UPLOADTHING_TOKEN, ingestUrl: e.UPLOADTHING_INGEST_URL, apiUrl: e.UPLOADTHING_API_URL } : null,
    // The From address defaults to one at the public host name, which receivers can at least attribute.
    mail: e.SMTP_URL ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `Reelbind <no-reply@${new URL(publicBaseUrl).hostname}>` } : null,
    passwordResetTtlSeconds: parseDurationSeconds(e.PASSWORD_RESET_TTL)!,
  };
}

/** TRUSTED_PROXIES trusts nothing: unset, empty or 0 hops. */
export const trustsNoProxy = ({ trustedProxies }: Pick<Config, "trustedProxies">) =>
  trustedProxies === 0 || (Array.isArray(trustedProxies) && trustedProxies.length === 0);

/**
 * What a server prints at start about its configuration. Secrets generated into one DATA_DIR
 * belong to that process (and those sharing the directory): with a PostgreSQL database several
 * processes may share, the tokens, signed URLs and console sessions one signs fail on the others.
 * A proxy in front of the app that TRUSTED_PROXIES leaves out makes every client the proxy's
 * address: an https PUBLIC_BASE_URL says there is one (the app itself speaks plain HTTP).
 */
export function startUpWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.databaseUrl && config.generatedSecrets) {
    warnings.push(
      `Warning: TOKEN_SECRETS and AUTH_SECRET are generated in ${config.dataDir}. Every process that shares this database must use the same ones: set both (docs/operations.md).`,
    );
  }
  const trustsNone = trustsNoProxy(config);
  if (trustsNone && config.clientIpHeader) {
    warnings.push(`Warning: CLIENT_IP_HEADER (${config.clientIpHeader}) is ignored while TRUSTED_PROXIES trusts no proxy: it is read only from a trusted one (docs/operations.md).`);
  } else if (trustsNone && config.publicBaseUrl.startsWith("https:")) {
    warnings.push(
      "Warning: PUBLIC_BASE_URL is https, so a proxy is in front of the app, but TRUSTED_PROXIES trusts none: every client counts as the proxy's address for the per-address limits. Set TRUSTED_PROXIES (docs/operations.md).",
    );
  }
  return warnings;
}

const configKey = Symbol.for("reelbind.config");
type ConfigHolder = { [configKey]?: Config };

/** The process-wide configuration, parsed on first use. */
export function getConfig(): Config {
  const holder = globalThis as ConfigHolder;
  holder[configKey] ??= parseConfig(process.env);
  return holder[configKey];
}
