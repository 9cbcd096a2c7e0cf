import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import eventSchema from "@/lib/ingest/event-schema-v1.json" with { type: "json" };

const openApiRequest = new Request("http://localhost/api/openapi.json");

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { parameters: { name: string; in: string; required: boolean }[]; requestBody?: { content: Record<string, { schema: { additionalProperties?: boolean; required?: string[] } }> } }>>;
};

describe("GET /api/openapi.json", () => {
  it("describes the credential endpoints from the handlers' own zod schemas", async () => {
    const response = await GET(openApiRequest);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Document;
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/credentials", "/api/credentials/{id}/revoke"]));

    const list = document.paths["/api/credentials"]!.get!;
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: "projectId", in: "query", required: true }));

    const create = document.paths["/api/credentials"]!.post!;
    const body = create.requestBody!.content["application/json"]!.schema;
    expect(body.additionalProperties).toBe(false);
    expect(body.required).toEqual(["projectId"]);

    const revoke = document.paths["/api/credentials/{id}/revoke"]!.post!;
    expect(revoke.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path", required: true }));
  });

  it("describes the share endpoints: a strict PUT body and a channel that is one of three", async () => {
    const document = (await (await GET(openApiRequest)).json()) as Document;
    const shares = "/api/Projects/{projectId}/public-video-shares";
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([shares, `${shares}/{channel}`, `${shares}/{channel}/disable`, `${shares}/{channel}/restore`, `${shares}/{channel}/rotate-slug`, "/api/Projects/{projectId}/audit-events"]),
    );
    const put = document.paths[`${shares}/{channel}`]!.put!;
    const body = put.requestBody!.content["application/json"]!.schema as { additionalProperties?: boolean; required?: string[]; properties: Record<string, unknown> };
    expect(body.additionalProperties).toBe(false);
    expect(body.required?.sort()).toEqual(["apiCredentialId", "publicTitle"]);
    expect(Object.keys(body.properties)).not.toContain("slug");
    expect(put.parameters).toContainEqual({ name: "channel", in: "path", required: true, schema: expect.objectContaining({ enum: ["DEV", "STAGING", "PROD"] }) });
  });

  it("describes the public routes of the route table, and leaves out the internal ones (the CLI's channel, next-auth)", async () => {
    const document = (await (await GET(openApiRequest)).json()) as Document;
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(expect.arrayContaining(["/api/health", "/api/openapi.json", "/api/embed/posters/{slug}", "/api/embed/files/{fileId}/{name}", "/api/previews/{file}"]));
    expect(paths.filter((path) => path.startsWith("/api/internal/") || path.startsWith("/api/auth/"))).toEqual([]);
    expect(document.paths["/api/embed/posters/{slug}"]!.get!.parameters).toEqual([{ name: "slug", in: "path", required: true, schema: { type: "string" } }]);
  });

  it("describes token scopes: the scopes a new token may have, and the scope each operation needs", async () => {
    const document = (await (await GET(openApiRequest)).json()) as Document & {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const body = document.paths["/api/me/tokens"]!.post!.requestBody!.content["application/json"]!.schema as { properties: { scopes: { items: { enum: string[] } } } };
    expect(body.properties.scopes.items.enum).toEqual(expect.arrayContaining(["read", "templates:write", "tokens:write"]));
    expect(document.paths["/api/Projects/{projectId}/templates/{templateId}/deploy"]!.post!.security).toEqual([{ bearer: ["templates:write"] }]);
    expect(document.paths["/api/Projects/{projectId}/templates"]!.get!.security).toEqual([{ bearer: ["read"] }]);
    expect(document.paths["/api/invitations/create-account"]!.post!.security).toEqual([]);
  });
});

type Responses = Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: Record<string, unknown> }> }>;
type FullOperation = {
  operationId: string;
  tags: string[];
  parameters: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Responses;
};
type FullDocument = { paths: Record<string, Record<string, FullOperation>>; webhooks: Record<string, { post: FullOperation }> };

describe("GET /api/openapi.json – complete and true", () => {
  const load = async () => (await (await GET(openApiRequest)).json()) as FullDocument;
  const statuses = (operation: FullOperation) => Object.keys(operation.responses).map(Number);

  it("gives every operation a unique camelCase operationId and one tag", async () => {
    const operations = Object.values((await load()).paths).flatMap((methods) => Object.values(methods));
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z][A-Za-z]+$/.test(id))).toEqual([]);
    expect(operations.filter((operation) => operation.tags.length !== 1)).toEqual([]);
  });

  it("answers every error as problem+json, with Retry-After on 429 and 503 and WWW-Authenticate on 401", async () => {
    for (const [path, methods] of Object.entries((await load()).paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses).filter(([status]) => Number(status) >= 400 && Number(status) !== 416)) {
          const where = `${method} ${path} ${status}`;
          expect(Object.keys(response.content ?? {}), where).toEqual(["application/problem+json"]);
          if (status === "429" || status === "503") expect(response.headers?.["Retry-After"]?.required, where).toBe(true);
          if (status === "401") expect(response.headers?.["WWW-Authenticate"]?.required, where).toBe(true);
        }
      }
    }
  });

  it("derives error statuses from each operation: 400 only with a body, 404 only with an id, 403 from a token scope", async () => {
    const { paths } = await load();
    const me = paths["/api/me"]!.get!;
    expect(statuses(me)).toEqual(expect.arrayContaining([200, 401, 403, 503]));
    expect(statuses(me).filter((status) => [400, 404, 409, 413, 415, 422].includes(status))).toEqual([]);
    const createCampaign = paths["/api/Projects/{projectId}/campaigns"]!.post!;
    expect(statuses(createCampaign)).toEqual(expect.arrayContaining([201, 400, 401, 403, 404, 413, 415, 422, 503]));
    expect(statuses(paths["/api/health"]!.get!).sort()).toEqual([200, 503]);
    expect(statuses(paths["/api/openapi.json"]!.get!)).toEqual([200]);
    expect(statuses(paths["/api/embed/manifest"]!.get!)).toEqual(expect.arrayContaining([200, 404, 422, 429, 503]));
    expect(statuses(paths["/api/organizations/{orgId}/members"]!.post!)).toContain(409);
    // No body, but a console session's form-typed POST is refused (lib/api/same-origin.ts).
    expect(statuses(paths["/api/Projects/{projectId}/public-video-shares/{channel}/rotate-slug"]!.post!)).toContain(415);
    expect(statuses(paths["/api/embed-sessions"]!.post!)).not.toContain(403);
  });

  it("declares every request and response media type: multipart fields, CSV, images, video, byte ranges", async () => {
    const { paths } = await load();
    const upload = paths["/api/Projects/{projectId}/templates/upload"]!.post!;
    const form = upload.requestBody!.content["multipart/form-data"]!.schema as { properties: Record<string, { format?: string; items?: { format?: string } }> };
    expect(form.properties.templateJson!.format).toBe("binary");
    expect(form.properties.assetFiles!.items!.format).toBe("binary");
    expect(Object.keys(form.properties)).toEqual(expect.arrayContaining(["name", "kind", "version", "manifestJson", "videoFile", "posterFile"]));
    expect(upload.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header" }));
    expect(upload.responses["201"]!.headers).toHaveProperty("Idempotent-Replayed");

    const recipients = paths["/api/Projects/{projectId}/campaigns/{campaignId}/recipients"]!.post!;
    expect(Object.keys(recipients.requestBody!.content).sort()).toEqual(["application/json", "text/csv"]);
    expect(Object.keys(paths["/api/Projects/{projectId}/campaigns/{campaignId}/export"]!.get!.responses["200"]!.content!)).toEqual(["text/csv"]);
    const download = paths["/api/renders/{renderId}/download"]!.get!;
    expect(Object.keys(download.responses["200"]!.content!).sort()).toEqual(["image/gif", "image/png", "video/mp4"]);
    expect(download.responses["206"]!.headers!["Content-Range"]!.required).toBe(true);
    expect(paths["/api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}"]!.put!.responses["200"]!.headers!.ETag!.required).toBe(true);
    expect(paths["/api/organizations/{orgId}/projects"]!.post!.responses["201"]!.content).toHaveProperty("application/json");
  });

  it("describes ingest with the event schema it validates with, and each webhook's payload", async () => {
    const document = (await load()) as FullDocument & { components: { schemas: Record<string, { $id?: string }> } };
    const events = document.paths["/analytics/v1/events"]!.post!;
    expect(events.requestBody!.content["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/AnalyticsEvent/$defs/batch" });
    // The ingest's own schema, placed in components: no $id, and its references point where it now lives.
    const embedded = document.components.schemas.AnalyticsEvent as { $id?: string; title: string };
    expect(embedded.$id).toBeUndefined();
    expect(embedded.title).toBe(eventSchema.title);
    const refs = [...JSON.stringify(embedded).matchAll(/"\$ref":"([^"]*)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(5);
    expect(refs.filter((ref) => !ref.startsWith("#/components/schemas/AnalyticsEvent"))).toEqual([]);
    expect(Object.keys(document.paths["/analytics/v1/consent"]!.post!.requestBody!.content)).toEqual(["text/plain", "application/json"]);
    expect(Object.keys(document.webhooks).sort()).toEqual(["campaign.imported", "render.completed", "render.failed", "webhook.test"]);
    const completed = document.webhooks["render.completed"]!.post;
    expect(completed.parameters.map((parameter) => parameter.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(completed.requestBody!.content["application/json"]!.schema).toMatchObject({ properties: { type: { const: "render.completed" } } });
  });
});
