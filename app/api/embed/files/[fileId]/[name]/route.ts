import { bytes, fileResponses } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { getDb } from "@/lib/db";
import { serveTemplateFile } from "@/lib/embed/serve-file";

export const GET = defineRoute(
  {
    path: "/api/embed/files/{fileId}/{name}",
    operationId: "getTemplateFile",
    tag: "Embed",
    summary: "A template file for the player; ?expires=&signature= from the page manifest are its authorization",
    access: "public",
    responses: fileResponses("The file, with the type it was uploaded as", { "*/*": bytes }),
    errors: { 404: "The URL is unknown or has expired" },
  },
  async ({ req, params }) => serveTemplateFile(await getDb(), req, params),
);
