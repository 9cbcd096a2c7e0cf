import { unknownRoute } from "@/lib/api/handler";

// Any method on a path under /api/ that no route has – 404 problem+json, not Next's HTML 404 page
export const GET = unknownRoute;
export const HEAD = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
export const OPTIONS = unknownRoute;
