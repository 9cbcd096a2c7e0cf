import { servePlayerPage } from "@/lib/embed/serve-player";

// GET /embed?session={token} – the player iframe for an embed session
export async function GET(req: Request) {
  const session = new URL(req.url).searchParams.get("session");
  return servePlayerPage(session ? { session } : null);
}
