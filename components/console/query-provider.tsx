"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { ToastProvider } from "./toast";

/** react-query for the console's client components, and the toasts they announce results with. */
export function ConsoleProviders({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Server components hand each page its first data; a refetch on focus keeps it fresh.
          queries: { staleTime: 10_000, retry: (failures, error) => failures < 2 && (error as { status?: number }).status === 0 },
          mutations: { retry: false },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
