import { withPublic } from "@/lib/api/handler";
import { authenticate } from "@/lib/auth/authenticate";
import { authorizeProject } from "@/lib/auth/project-access";
import { getDb } from "@/lib/db";
import { servePlayerDocument } from "@/lib/embed/serve-player";
import { buildTemplatePreviewManifest } from "@/lib/embed/template-preview";

const notices: Record<number, string> = {
  401: "Sign in to the console to preview this template.",
  404: "This template is not available.",
};

// GET /embed/template-preview/{projectId}/{templateId} – the player for one template of any status, for the console's live
// preview: the console session (Viewer or higher), framed only by the app itself, no analytics (servePlayerDocument answers errors as a page)
export const GET = withPublic<{ projectId: string; templateId: string }>(({ req, params }) =>
  servePlayerDocument(async () => {
    const db = await getDb();
    const actor = await authenticate(db, req);
    const access = await authorizeProject(db, actor, params.projectId, "template.read");
    return buildTemplatePreviewManifest({ db, actor, access }, params.templateId);
  }, notices),
);
