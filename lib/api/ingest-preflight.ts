import { answerPreflight } from "@/lib/ingest/handle-ingest";
import { defineRoute } from "./define-route";

/** OPTIONS of an ingest endpoint: the CORS preflight of the SDK's fetch or of a JSON consent beacon. */
export const ingestPreflight = <const Path extends string>(path: Path, operationId: string) =>
  defineRoute(
    {
      path,
      operationId,
      tag: "Ingest",
      summary: "CORS preflight: the Origin is checked on the POST itself, against the token's allowed origins",
      access: "public",
      offline: true,
      responses: { 204: { description: "The methods and headers a page may send" } },
    },
    ({ req }) => answerPreflight(req),
  );
