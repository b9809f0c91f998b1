import { type ReactNode, useId, useRef, useState } from "react";
import { useHydrated } from "../../lib/use-session.ts";

/**
 * A secret the shop shows once (a set-up link, an API token): a read-only box
 * that selects itself, and a Copy button once the page's scripts run.
 */
export function OneTimeValue({ label, value, children, testId }: { label: string; value: string; children?: ReactNode; testId?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  async function copy() {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text is selected for Ctrl+C.
      setCopied("no");
    }
  }
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-lg font-bold text-stone-900">
        {label}
      </label>
      {children ? (
        <div id={`${id}-hint`} className="text-sm text-stone-700">
          {children}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          aria-describedby={children ? `${id}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
          data-testid={testId}
          className="min-h-11 min-w-0 flex-1 basis-64 rounded-md border border-stone-400 bg-white px-3 py-2 font-mono text-sm"
        />
        {hydrated ? (
          <button type="button" onClick={copy} className="btn-secondary">
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        ) : null}
      </div>
      <p aria-live="polite" className="text-sm text-stone-700">
        {copied === "yes" ? "Copied to the clipboard." : copied === "no" ? "Could not copy: the text is selected, press Ctrl+C (⌘C on a Mac)." : ""}
      </p>
    </div>
  );
}

/** A secret just made (a set-up link, a token), in a panel of its own above the list: shown once, with what to do with it. */
export function OneTimePanel({ name, testId, label, value, valueTestId, children }: { name: string; testId: string; label: string; value: string; valueTestId: string; children: ReactNode }) {
  return (
    <section aria-label={name} className="mb-5 max-w-3xl rounded-lg border-l-4 border-amber-500 bg-white p-5 shadow-sm" data-testid={testId}>
      <OneTimeValue label={label} value={value} testId={valueTestId}>
        {children}
      </OneTimeValue>
    </section>
  );
}
