import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";

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
