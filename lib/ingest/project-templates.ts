import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { getDb } from "@/lib/db";
import { templates } from "@/lib/db/schema";
import { processWide } from "@/lib/process-wide";
import type { WireEvent } from "@/shared/events/wire-events";
import type { RefusedEvent } from "./quarantine";

// The templates an event may count for when its ingest token names none (tokens minted before
// they carried the served template): the project's own (docs/adr/0134-events-naming-unknown-template.md,
// docs/adr/0133-which-template-an-event-counts-for.md). Each template id and version an event
// carries adds rollup rows, so a page sending made-up ones would otherwise swell the rollups the
// job writes for every tenant.

export const templateRefusals = {
  unknownId: "template_id: not a template of this project",
  unknownVersion: "template_version: not a version of this template",
} as const;

/** A project's templates: id → version (templates are immutable, a new version is a new id). */
type ProjectTemplates = ReadonlyMap<string, string>;

type TemplateClaim = Pick<WireEvent, "template_id" | "template_version">;

export type TemplateCheckOptions = {
  load: (projectId: string) => Promise<ProjectTemplates>;
  /** Milliseconds on a clock that only moves forward. */
  now?: () => number;
  /** How long a project's set is used before it is loaded again. */
  ttlMs?: number;
  /** A miss reloads the set unless a miss already did within this long. */
  missReloadIntervalMs?: number;
  maxProjects?: number;
};

export type TemplateCheck = {
  /** For each event, null when the project has its template, else why it does not. */
  refusals(projectId: string, events: readonly TemplateClaim[]): Promise<(string | null)[]>;
};

type Entry = { templates: Promise<ProjectTemplates>; loadedAt: number; onMiss: boolean };

/**
 * The check against each project's set of templates, cached per process. A pair the set lacks
 * reloads it, so a template uploaded a moment ago counts at once, unless a miss already reloaded
 * it within the interval: a flood of made-up ids costs one query per interval and project (and
 * the refresh every ttlMs).
 */
export function createTemplateCheck({
  load,
  now = () => performance.now(),
  ttlMs = 30_000,
  missReloadIntervalMs = 1_000,
  maxProjects = 10_000,
}: TemplateCheckOptions): TemplateCheck {
  // Ages are judged here, on `now` for both the TTL and the interval; the cache only bounds the projects kept.
  const cache = new LRUCache<string, Entry>({ max: maxProjects });
  const age = (entry: Entry) => now() - entry.loadedAt;
  const current = (projectId: string) => {
    const entry = cache.get(projectId);
    return entry && age(entry) < ttlMs ? entry : undefined;
  };

  function reload(projectId: string, onMiss: boolean): Entry {
    const entry: Entry = { templates: load(projectId), loadedAt: now(), onMiss };
    cache.set(projectId, entry);
    // A failed load is not kept: the request that waits for it fails, the next one loads again.
    entry.templates.catch(() => {
      if (cache.get(projectId) === entry) cache.delete(projectId);
    });
    return entry;
  }

  const refusal = (known: ProjectTemplates, { template_id, template_version }: TemplateClaim) => {
    const version = known.get(template_id);
    if (version === undefined) return templateRefusals.unknownId;
    return version === template_version ? null : templateRefusals.unknownVersion;
  };

  return {
    async refusals(projectId, events) {
      const first = current(projectId) ?? reload(projectId, false);
      const known = await first.templates;
      if (events.every((event) => refusal(known, event) === null)) return events.map(() => null);
      // Another request's miss may have reloaded the set meanwhile: then its load is this one's too.
      const latest = current(projectId);
      const reloaded = latest?.onMiss && age(latest) < missReloadIntervalMs ? latest : reload(projectId, true);
      const latestKnown = reloaded === first ? known : await reloaded.templates;
      return events.map((event) => refusal(latestKnown, event));
    },
  };
}

/** The project's templates from the database. */
export async function loadProjectTemplates(projectId: string): Promise<ProjectTemplates> {
  const db = await getDb();
  const rows = await db.select({ id: templates.id, version: templates.version }).from(templates).where(eq(templates.projectId, projectId));
  return new Map(rows.map((row) => [row.id, row.version]));
}

const templateCheck = () => processWide("ingest.template-check", () => createTemplateCheck({ load: loadProjectTemplates }));

/** The events whose template the project has, and the others with the reason each is refused. */
export async function sortByTemplate<E extends TemplateClaim>(projectId: string, events: E[]): Promise<{ known: E[]; refused: RefusedEvent[] }> {
  const refusals = await templateCheck().refusals(projectId, events);
  const known: E[] = [];
  const refused: RefusedEvent[] = [];
  events.forEach((event, i) => {
    const reason = refusals[i];
    if (reason) refused.push({ reasons: [reason], event });
    else known.push(event);
  });
  return { known, refused };
}
