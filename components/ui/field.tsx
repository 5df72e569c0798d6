import type { InputHTMLAttributes, ReactNode } from "react";

// Addresses and numbers read left to right in every language: in an RTL page a placeholder such as
// "https://" would otherwise show mirrored ("//:https").
const LTR_TYPES = new Set(["email", "url", "tel"]);

/** A labelled input with an optional hint and an error announced to screen readers. */
export function Field({
  id,
  label,
  hint,
  error,
  optionalLabel,
  ...input
}: { id: string; label: ReactNode; hint?: ReactNode; error?: string; optionalLabel?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {optionalLabel && <span className="ms-1 font-normal text-slate-500">({optionalLabel})</span>}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`mt-1 block w-full rounded-lg border px-3 py-2 shadow-sm ${error ? "border-red-500" : "border-slate-300"}`}
        dir={LTR_TYPES.has(input.type ?? "") ? "ltr" : undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </div>
  );
}
