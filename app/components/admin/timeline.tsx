import type { ReactNode } from "react";
import { formatDateTime } from "../../lib/admin/format.ts";
import { Panel } from "./panel.tsx";

export interface TimelineEntry {
  /** What happened: a status's name, or "Note". */
  title: string;
  note?: string | null;
  at: string;
  /** The member who did it; none for the customer or the shop itself. */
  staff?: string | null;
  /** A note for the team rather than a move: marked apart. */
  aside?: boolean;
}

/** A record's timeline on its page (an order, a return), oldest first; `children` below it (a form to add a note). */
export function Timeline({ entries, testId, children }: { entries: TimelineEntry[]; testId: string; children?: ReactNode }) {
  return (
    <Panel id="timeline-heading" title="Timeline">
      <ol className="grid gap-3 text-sm" data-testid={testId}>
        {entries.map((h, i) => (
          <li key={i} className={`border-l-2 pl-3 ${h.aside ? "border-amber-400" : "border-brand-700"}`}>
            <p>
              <span className="font-semibold">{h.title}</span>
              <span className="text-stone-600">
                {" "}
                · <time dateTime={h.at}>{formatDateTime(h.at)}</time>
                {h.staff ? ` · ${h.staff}` : ""}
              </span>
            </p>
            {h.note ? <p className="whitespace-pre-line">{h.note}</p> : null}
          </li>
        ))}
      </ol>
      {children}
    </Panel>
  );
}
