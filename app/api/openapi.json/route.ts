import { defineRoute, type DeclaredRoute } from "@/lib/api/define-route";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/api/responses";
import { getConfig } from "@/lib/config";
import { routeModules } from "@/app/api/route-modules";

export const dynamic = "force-dynamic";

export const GET: DeclaredRoute = defineRoute(
  {
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "System",
    summary: "This document",
    access: "public",
    offline: true,
    responses: { 200: { description: "The OpenAPI 3.1 document", media: { "application/json": { type: "object" } } } },
  },
  // This route's own module is not in routeModules (it imports that list), so it adds itself.
  (): Response => json(buildOpenApiDocument(getConfig().publicBaseUrl, [...routeModules, { GET }])),
);
