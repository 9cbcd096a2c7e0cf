import Link from "next/link";

// The console's buttons: one look per intent, a visible focus ring, and a reason shown as the
// tooltip and read by screen readers when a role or the lifecycle forbids the action.

type Intent = "primary" | "secondary" | "danger" | "ghost";

const intents: Record<Intent, string> = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 disabled:bg-indigo-300",
  secondary: "bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:text-slate-400",
};

export function buttonClass(intent: Intent = "secondary", extra = ""): string {
  return `inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed ${intents[intent]} ${extra}`;
}

type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  intent?: Intent;
  /** Why the button is disabled; shown on hover and read with the button. */
  disabledReason?: string | null;
  busy?: boolean;
};

export function Button({ intent = "secondary", disabledReason, busy, className = "", disabled, children, type = "button", ...props }: ButtonProps) {
  const isDisabled = Boolean(disabled || disabledReason || busy);
  return (
    <button
      type={type}
      disabled={isDisabled}
      aria-disabled={isDisabled || undefined}
      title={disabledReason ?? undefined}
      aria-busy={busy || undefined}
      className={buttonClass(intent, className)}
      {...props}
    >
      {children}
      {disabledReason ? <span className="sr-only"> ({disabledReason})</span> : null}
    </button>
  );
}

export function ButtonLink({ intent = "secondary", className = "", ...props }: React.ComponentProps<typeof Link> & { intent?: Intent }) {
  return <Link className={buttonClass(intent, className)} {...props} />;
}
