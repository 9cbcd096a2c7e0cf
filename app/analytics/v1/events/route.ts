import { answerPreflight, handleEventBatch } from "@/lib/ingest/handle-ingest";

// POST {ingest_url}/analytics/v1/events – a batch of player events; 202 {accepted, duplicates, quarantined} once committed
export const POST = (req: Request) => handleEventBatch(req);

// OPTIONS – CORS preflight of the SDK's fetch
export const OPTIONS = (req: Request) => answerPreflight(req);
