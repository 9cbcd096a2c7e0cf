import { ButtonLink } from "./button";

// What a page shows when it has nothing yet, is loading, or failed.

export function EmptyState({ title, children, action }: { title: string; children?: React.ReactNode; action?: { href: string; label: string } }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
      {action ? (
        <ButtonLink href={action.href} intent="primary" className="mt-4">
          {action.label}
        </ButtonLink>
      ) : null}
    </div>
  );
}

export function LoadingState({ label = "Loading…" }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-3 py-10 text-sm text-slate-600">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" aria-hidden />
      {label}
    </div>
  );
}

export function ErrorState({ title = "This could not be loaded", message, retry }: { title?: string; message: string; retry?: () => void }) {
  return (
    <div role="alert" className="rounded-lg bg-red-50 px-6 py-4 text-sm text-red-800 ring-1 ring-red-200">
      <p className="font-medium">{title}</p>
      <p className="mt-1">{message}</p>
      {retry ? (
        <button type="button" onClick={retry} className="mt-3 font-medium underline focus-visible:outline-2 focus-visible:outline-indigo-600">
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** A note that the signed-in role cannot do what the page offers. */
export function RoleNote({ children }: { children: React.ReactNode }) {
  return <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">{children}</p>;
}
