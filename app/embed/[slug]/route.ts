import { servePlayerPage } from "@/lib/embed/serve-player";

type Context = { params: Promise<{ slug: string }> };

// GET /embed/{slug} – the player iframe for a share
export async function GET(_req: Request, { params }: Context) {
  return servePlayerPage({ share: (await params).slug });
}
