// The OpenAPI document as this checkout builds it, in process (no server): from every route
// module's contract, the document's own route included (it is not in app/api/route-modules.ts,
// which it imports). For the scripts and tests that read the document without a server.
import * as openApiRoute from "@/app/api/openapi.json/route";
import { routeModules } from "@/app/api/route-modules";
import { buildOpenApiDocument, operationsOf } from "@/lib/api/openapi";

export const documentedRouteModules: readonly object[] = [...routeModules, openApiRoute];

/** Every declared operation, the internal ones (not in the document) included. */
export const declaredOperations = () => operationsOf(documentedRouteModules);

export const openApiDocument = (serverUrl: string) => buildOpenApiDocument(serverUrl, documentedRouteModules);
