import { withPublic } from "@/lib/api/handler";
import { servePlayerPage } from "@/lib/embed/serve-player";

// GET /embed/{slug} – the player iframe for a share (servePlayerPage answers its own errors as a page)
export const GET = withPublic<{ slug: string }>(({ params }) => servePlayerPage({ share: params.slug }));
