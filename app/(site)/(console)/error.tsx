"use client";

import { ErrorState } from "@/components/console/states";

// A console page whose server render failed. A database outage gets its own 503 page
// (app/global-error.tsx); this is for the rest, with a way to try again.
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  // Unavailable: app/global-error.tsx shows it and reloads until the database is back.
  if (error.digest === "reelbind-service-unavailable") throw error;
  return (
    <ErrorState
      title="This page could not be shown"
      message={error.digest ? `Something went wrong on the server (reference ${error.digest}).` : error.message}
      retry={reset}
    />
  );
}
