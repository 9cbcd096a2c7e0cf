import { withPublic } from "@/lib/api/handler";
import { servePlayerPage } from "@/lib/embed/serve-player";

// GET /embed?session={token} – the player iframe for an embed session (servePlayerPage answers its own errors as a page)
export const GET = withPublic(({ req }) => {
  const session = new URL(req.url).searchParams.get("session");
  return servePlayerPage(session ? { session } : null, req.headers.get("accept-language"));
});
