import { handleUploadThing } from "@/lib/uploadthing/route-handler";

// GET /api/uploadthing – the file routes' config, for uploadthing/client (signed-in users)
export const GET = handleUploadThing;

// POST /api/uploadthing – ?actionType=upload: a presigned URL for one declared file of an upload session (template.upload, same origin); with an uploadthing-hook header: UploadThing's signed callback
export const POST = handleUploadThing;
