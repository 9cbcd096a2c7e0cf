import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientSchemaFile, renderClientSchema } from "@/scripts/generate-client";
import { openApiDocument } from "@/scripts/openapi-document";

// client/schema.ts types the typed client (client/index.ts) from the OpenAPI document. It is
// committed, so users get it with the package; it must be what the document says now.
describe("client/schema.ts, the typed client's generated types", () => {
  it("is what `npm run client:generate` writes from the current document (else run it and commit)", async () => {
    expect(readFileSync(clientSchemaFile, "utf8")).toBe(await renderClientSchema());
  });

  it("types every path of the document", async () => {
    const schema = await renderClientSchema();
    const documentPaths = Object.keys(openApiDocument("http://localhost:3000").paths);
    expect(documentPaths.length).toBeGreaterThan(0);
    expect(documentPaths.filter((documentPath) => !schema.includes(`    "${documentPath}": {`))).toEqual([]);
  });

  it("types file parts of the template upload as Blob, so FormData can carry them", async () => {
    const schema = await renderClientSchema();
    const form = schema.slice(schema.indexOf('"multipart/form-data": {'), schema.indexOf("};", schema.indexOf('"multipart/form-data": {')));
    expect(form).toContain("templateJson?: Blob;");
    expect(form).toContain("assetFiles?: Blob[];");
  });
});
