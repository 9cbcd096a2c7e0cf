import { withPublic } from "@/lib/api/handler";
import { clientAddress } from "@/lib/client-address";
import { servePlayerPage } from "@/lib/embed/serve-player";
import { viewerCookieOf } from "@/lib/releases/viewer-cookie";

// GET /embed/{slug} – the player iframe for a share (servePlayerPage answers its own errors as a page)
// (the landing page's first-party viewer cookie, when it came with the request, keeps an A/B variant)
export const GET = withPublic<{ slug: string }>(({ req, params }) => servePlayerPage({ share: params.slug, address: clientAddress(req.headers), viewer: viewerCookieOf(req.headers) }, req.headers.get("accept-language")));
