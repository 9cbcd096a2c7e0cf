import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import type { WireEvent } from "@/shared/events/wire-events";
import type { EventRow } from "./store-events";
import { LRUCache } from "lru-cache";

// The enrichment step of docs/design.md, Ingest: after validation, the server overwrites the tenant
// fields (and the template, when the token names one) with the token's claims and adds device,
// geo and received_at. Device and country come from request headers, so both are treated as
// untrusted input.

import type { DeviceType } from "./device-types";

export type { DeviceType } from "./device-types";
export type Device = { readonly type: DeviceType; readonly os: string | null; readonly browser: string | null };

export const deviceCacheLimits = {
  /** ua-parser-js 1.x reads only the first 500 characters itself; cutting there keys the cache by what it sees. */
  maxUserAgentLength: 500,
  /** Entries in the parse cache; keys are at most 500 characters, so ~1 MB at worst. */
  maxEntries: 1_000,
} as const;

// Names as ua-parser-js 1.x reports them, lowercased (it keeps the casing of the UA for some).
const desktopOperatingSystems = new Set([
  "windows",
  "mac os",
  "macos",
  "linux",
  "chromium os",
  "chrome os",
  "ubuntu",
  "kubuntu",
  "xubuntu",
  "lubuntu",
  "debian",
  "fedora",
  "suse",
  "opensuse",
  "red hat",
  "redhat",
  "centos",
  "gentoo",
  "arch",
  "slackware",
  "mint",
  "manjaro",
  "deepin",
  "elementary os",
  "mageia",
  "mandriva",
  "pclinuxos",
  "raspbian",
  "freebsd",
  "netbsd",
  "openbsd",
  "dragonfly",
  "ghostbsd",
  "solaris",
  "opensolaris",
  "unix",
  "haiku",
]);

const parsedDeviceTypes: Record<string, DeviceType> = {
  mobile: "mobile",
  tablet: "tablet",
  smarttv: "tv",
  console: "console",
  wearable: "wearable",
};

const unknownDevice: Device = Object.freeze({ type: "other", os: null, browser: null });
const deviceCache = new LRUCache<string, Device>({ max: deviceCacheLimits.maxEntries });

/**
 * Device type, OS name and browser name of a User-Agent (names only: versions would multiply
 * the values reports group by). Results are frozen and cached, so a repeated UA returns the
 * same object.
 */
export function describeDevice(userAgent: string | null): Device {
  if (!userAgent) return unknownDevice;
  const key = userAgent.slice(0, deviceCacheLimits.maxUserAgentLength);
  let device = deviceCache.get(key);
  if (!device) {
    device = parseDevice(key);
    deviceCache.set(key, device);
  }
  return device;
}

function parseDevice(userAgent: string): Device {
  const result = new UAParser(userAgent).getResult();
  const os = result.os.name || null;
  const browser = result.browser.name || null;
  let type: DeviceType;
  // Crawlers and scripted clients, by the maintained isbot list; checked before ua-parser's
  // device type because the smartphone Googlebot also parses as an Android phone. The
  // stored is_bot column is this same verdict (isBotDevice), so there is one classification.
  if (isbot(userAgent)) type = "bot";
  else if (result.device.type) type = parsedDeviceTypes[result.device.type] ?? "other";
  else type = os && desktopOperatingSystems.has(os.toLowerCase()) ? "desktop" : "other";
  return Object.freeze({ type, os, browser });
}

// The 249 officially assigned ISO 3166-1 alpha-2 codes, plus XK: not ISO, but the code
// CloudFront, Cloudflare and MaxMind give Kosovo, whose viewers would otherwise count as
// unknown. Placeholders (XX, T1, ZZ) and regions (EU, AP) are not countries and stay out.
const countryCodes = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
   BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
   CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
   DE DJ DK DM DO DZ
   EC EE EG EH ER ES ET
   FI FJ FK FM FO FR
   GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
   HK HM HN HR HT HU
   ID IE IL IM IN IO IQ IR IS IT
   JE JM JO JP
   KE KG KH KI KM KN KP KR KW KY KZ
   LA LB LC LI LK LR LS LT LU LV LY
   MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
   NA NC NE NF NG NI NL NO NP NR NU NZ
   OM
   PA PE PF PG PH PK PL PM PN PR PS PT PW PY
   QA
   RE RO RS RU RW
   SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
   TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ
   UA UG UM US UY UZ
   VA VC VE VG VI VN VU
   WF WS
   YE YT
   ZA ZM ZW
   XK`.split(/\s+/),
);

/** The viewer-country header as an uppercase ISO 3166-1 alpha-2 code, or null when absent or not a country. */
export function countryFromHeader(value: string | null): string | null {
  if (value === null || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return countryCodes.has(code) ? code : null;
}

export type EnrichmentContext = {
  /** From the ingest token's claims, never from the events. */
  organizationId: string;
  projectId: string;
  shareId?: string;
  channel?: string;
  /**
   * The template the token says the page was served. When set, every event counts for it
   * whatever it claims: the claim is signed, the event's is not
   * (docs/adr/0133-which-template-an-event-counts-for.md).
   */
  template?: { id: string; version: string };
  userAgent: string | null;
  /** The raw GEO_HEADER value; validated here. */
  country: string | null;
  receivedAt: Date;
};

/** Whether enrichment classified the device as a bot: such events are stored but kept out of every metric. */
export function isBotDevice(device: Device): boolean {
  return device.type === "bot";
}

/** Validated wire events as the rows ingest stores. */
export function enrichEvents(events: WireEvent[], context: EnrichmentContext): EventRow[] {
  const device = describeDevice(context.userAgent);
  const isBot = isBotDevice(device);
  const country = countryFromHeader(context.country);
  const receivedAt = context.receivedAt.toISOString();
  // One frozen object for the whole batch, like the cached device: storage serializes it once.
  const geo = country ? Object.freeze({ country }) : null;
  return events.map((event) => ({
    organization_id: context.organizationId,
    project_id: context.projectId,
    event_id: event.event_id,
    event_type: event.event_type,
    occurred_at: event.occurred_at,
    received_at: receivedAt,
    template_id: context.template?.id ?? event.template_id,
    template_version: context.template?.version ?? event.template_version,
    session_id: event.session_id,
    playback_id: event.playback_id,
    viewer_hash: event.viewer_hash ?? null,
    referrer_host: event.referrer_host ?? null,
    consent: event.consent,
    payload: event.payload,
    device,
    geo,
    share_id: context.shareId ?? null,
    channel: context.channel ?? null,
    is_bot: isBot,
  }));
}
