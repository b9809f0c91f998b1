import { type ReactNode, useEffect, useRef } from "react";

/**
 * What a screen's last form post did, at the top of the page: focus moves to
 * it (a keyboard or screen-reader user hears the outcome), each new result
 * again; not when the screen sends it to a field in error instead.
 */
export function ResultBanner({ ok, result, focus = true, children }: { ok: boolean; result: unknown; focus?: boolean; children: ReactNode }) {
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) banner.current?.focus();
  }, [result, focus]);
  return (
    <div
      ref={banner}
      tabIndex={-1}
      role={ok ? "status" : "alert"}
      data-testid="result-banner"
      className={`mb-4 rounded-md border-l-4 px-4 py-3 font-semibold ${ok ? "border-green-700 bg-green-50 text-green-900" : "border-red-700 bg-red-50 text-red-800"}`}
    >
      {children}
    </div>
  );
}

/** A form post's answer with nothing more than its message, as a banner; nothing before the first post. */
export function ActionResultBanner({ result }: { result: { ok: boolean; message: string } | undefined }) {
  return result ? (
    <ResultBanner ok={result.ok} result={result}>
      {result.message}
    </ResultBanner>
  ) : null;
}
