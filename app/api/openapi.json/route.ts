import { withPublic } from "@/lib/api/handler";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/api/responses";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";

// GET /api/openapi.json – the management API described as OpenAPI 3.1
export const GET = withPublic(() => json(buildOpenApiDocument(getConfig().publicBaseUrl)));
