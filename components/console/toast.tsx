"use client";

import { createContext, useCallback, useContext, useState } from "react";

// Short confirmations and failures, announced to screen readers through an aria-live region
// that is always in the page (a region added with its message is not read out).

type Toast = { id: number; message: string; tone: "success" | "error" };
type ToastApi = { success: (message: string) => void; error: (message: string) => void };

const ToastContext = createContext<ToastApi | null>(null);
const visibleMs = 5_000;

export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((message: string, tone: Toast["tone"]) => {
    const id = Date.now() + Math.random();
    setToasts((current) => [...current.slice(-2), { id, message, tone }]);
    setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), visibleMs);
  }, []);
  const [api] = useState<ToastApi>(() => ({ success: (m) => push(m, "success"), error: (m) => push(m, "error") }));
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div aria-live="polite" role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4">
        {toasts.map((toast) => (
          <p
            key={toast.id}
            className={`pointer-events-auto rounded-md px-4 py-2 text-sm shadow-lg ${toast.tone === "error" ? "bg-red-700 text-white" : "bg-slate-900 text-white"}`}
          >
            {toast.message}
          </p>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs a ToastProvider (the console layout has one).");
  return api;
}
