import { answerPreflight, handleConsentBeacon } from "@/lib/ingest/handle-ingest";

// POST {ingest_url}/analytics/v1/consent – the sendBeacon carrying consent.accepted / consent.declined
export const POST = (req: Request) => handleConsentBeacon(req);

// OPTIONS – for clients that send the beacon as application/json
export const OPTIONS = (req: Request) => answerPreflight(req);
