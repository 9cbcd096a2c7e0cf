import { cache } from "react";
import { getDb } from "@/lib/db";
import { loadPageData } from "@/lib/server/request-context";
import { findPublicShare } from "@/lib/shares/public-share";

/** One query per request, shared by the layout (lang), generateMetadata and the page; 503 while the database is unreachable. */
export const loadShare = cache((slug: string) => loadPageData(async () => findPublicShare(await getDb(), slug)));
