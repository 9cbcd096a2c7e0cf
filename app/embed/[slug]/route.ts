import { withPublic } from "@/lib/api/handler";
import { clientAddress } from "@/lib/client-address";
import { servePlayerPage } from "@/lib/embed/serve-player";

// GET /embed/{slug} – the player iframe for a share (servePlayerPage answers its own errors as a page)
export const GET = withPublic<{ slug: string }>(({ req, params }) => servePlayerPage({ share: params.slug, address: clientAddress(req.headers) }));
