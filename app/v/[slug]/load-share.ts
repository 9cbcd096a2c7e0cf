import { cache } from "react";
import { getDb } from "@/lib/db";
import { findPublicShare } from "@/lib/shares/public-share";

/** One query per request, shared by the layout (lang), generateMetadata and the page. */
export const loadShare = cache(async (slug: string) => findPublicShare(await getDb(), slug));
