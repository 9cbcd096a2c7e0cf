import { withPublic } from "@/lib/api/handler";
import { clientAddress } from "@/lib/client-address";
import { servePlayerPage } from "@/lib/embed/serve-player";

// GET /embed/{slug}/{recipientToken} – the player iframe for a campaign recipient's personal URL: their data over the share's
export const GET = withPublic<{ slug: string; token: string }>(({ req, params }) =>
  servePlayerPage({ share: params.slug, address: clientAddress(req.headers), recipient: params.token }, req.headers.get("accept-language")),
);
