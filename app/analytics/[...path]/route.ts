// Any method on a path under /analytics/ that no route has – 404 problem+json, as under /api/
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/app/api/[...path]/route";
