"use client";

import { useLinkStatus } from "next/link";

/**
 * A spinner over the end of a link while the page it opens is on its way. The console has no
 * loading.tsx (a Suspense boundary would fix every page's status at 200 before a notFound(), see
 * app/(site)/(console)/not-found.tsx), so this is what shows a click was taken. Inside a Link only.
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return <span aria-hidden className="absolute -right-1 top-1/2 h-3 w-3 -translate-y-1/2 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" />;
}
