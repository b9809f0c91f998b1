import { useCompareNotice } from "./use-compare.ts";

const styles = {
  success: "border-green-700 bg-green-50 text-green-900",
  info: "border-brand-700 bg-brand-50 text-brand-900",
  warning: "border-amber-600 bg-amber-50 text-amber-900",
} as const;

/**
 * The compare messages: one polite live region, always in the page so screen
 * readers announce what appears in it; each message goes after 3 seconds.
 */
export function CompareMessages() {
  const notice = useCompareNotice();
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4" aria-live="polite" aria-atomic="true" data-testid="compare-messages">
      {notice ? (
        <p key={notice.id} className={`pointer-events-auto rounded-md border-l-4 px-4 py-3 font-semibold shadow-lg ${styles[notice.level]}`} data-level={notice.level}>
          {notice.message}
        </p>
      ) : null}
    </div>
  );
}
