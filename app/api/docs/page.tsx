import { ApiReference } from "@/components/api-reference";

// GET /api/docs – the API reference: GET /api/openapi.json rendered, public like the document
export default function ApiReferencePage() {
  return (
    <main>
      <noscript>
        The API reference needs JavaScript; the document itself is <a href="/api/openapi.json">/api/openapi.json</a>.
      </noscript>
      <ApiReference documentUrl="/api/openapi.json" />
    </main>
  );
}
