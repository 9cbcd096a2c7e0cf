// The methods each route of the app takes, for the Allow header of its 405s (RFC 9110 §15.5.6;
// docs/adr/0140-api-reference-page-and-allow.md). Next answers a method that a route file does
// not export with a bare 405. The build lists every route file's exported methods and every page
// (scripts/build-app.mjs, into routeMethodsFile); the server (scripts/serve.mjs) finds the route a
// path reaches as Next's router ranks them and computes Allow as Next's own OPTIONS answer does.
import { readFileSync } from "node:fs";
import path from "node:path";

/** Written by the build beside Next's output. */
export const routeMethodsFile = path.join(".next", "reelbind", "route-methods.json");

const httpMethods = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);

/**
 * The route a file under app/ serves ("/api/Projects/[projectId]/templates"), or null when the
 * file is no route: a folder whose name starts with "_" is private, "(group)" names no segment.
 */
export function routeOfFile(appRelativeDir) {
  const segments = appRelativeDir.split(/[\\/]/).filter((segment) => segment && segment !== ".");
  if (segments.some((segment) => segment.startsWith("_"))) return null;
  return `/${segments.filter((segment) => !/^\(.*\)$/.test(segment)).join("/")}`;
}

/** A route file's entry: the HTTP methods among its exports. */
export const routeEntry = (route, exports) => ({ route, methods: exports.filter((name) => httpMethods.has(name)).sort() });

/**
 * A page's entry. Next renders a page whatever the method, so a page never answers 405; it is
 * listed so that its path does not fall to a catch-all route's entry.
 */
export const pageEntry = (route) => ({ route, page: true });

/** How specific a route's segment is, as Next's router orders them: a static name first, [[...x]] last. */
function segmentRank(segment) {
  if (segment.startsWith("[[...")) return 3;
  if (segment.startsWith("[...")) return 2;
  if (segment.startsWith("[")) return 1;
  return 0;
}

/** The ranks of the route's segments when it matches the path's, or null. */
function match(routeSegments, pathSegments) {
  const ranks = [];
  for (const [index, segment] of routeSegments.entries()) {
    const rank = segmentRank(segment);
    ranks.push(rank);
    if (rank === 3) return ranks;
    if (rank === 2) return pathSegments.length > index ? ranks : null;
    if (index >= pathSegments.length || (rank === 0 && segment !== pathSegments[index])) return null;
  }
  return routeSegments.length === pathSegments.length ? ranks : null;
}

const byRank = (a, b) => {
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index] - b[index];
  return a.length - b.length;
};

const decodeSegment = (segment) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The build's list, ready for allowedMethods; empty when the build predates it (no Allow then). */
export function readRouteMethods(root) {
  let entries;
  try {
    entries = JSON.parse(readFileSync(path.join(root, routeMethodsFile), "utf8"));
  } catch {
    return [];
  }
  return entries.map((entry) => ({ ...entry, segments: entry.route.split("/").filter(Boolean) }));
}

/**
 * The methods the route that `pathname` reaches takes, sorted, or null when no route does (or a
 * page does): what it exports, OPTIONS (Next answers it when the route does not), and HEAD with
 * GET (Next answers HEAD with the GET handler).
 */
export function allowedMethods(routes, pathname) {
  const pathSegments = pathname.split("?")[0].split("/").filter(Boolean).map(decodeSegment);
  let best = null;
  for (const route of routes) {
    const ranks = match(route.segments, pathSegments);
    if (ranks && (!best || byRank(ranks, best.ranks) < 0)) best = { route, ranks };
  }
  if (!best || best.route.page) return null;
  const allowed = new Set([...best.route.methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort();
}
