import { actionWords, auditSentence, changedFields } from "../../lib/admin/audit-words.ts";
import { formatDateTime } from "../../lib/admin/format.ts";
import { Panel } from "./panel.tsx";

export interface AuditEntryView {
  id: number;
  at: string;
  staff: { id: number; name: string };
  via: string;
  token_name: string | null;
  action: string;
  entity: string;
  entity_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const VIA: Record<string, string> = { screen: "back office", api: "API", token: "API token", cli: "command line" };

/** What the entry did, in the shop's words, then each field it changed: `Status: Paid → Processing`. */
export function Changes({ entry }: { entry: Pick<AuditEntryView, "action" | "entity_id" | "before" | "after"> }) {
  const sentence = auditSentence(entry);
  const fields = changedFields(entry);
  if (!sentence && !fields.length) return <span className="text-stone-600">No details recorded.</span>;
  return (
    <div className="grid gap-1 [overflow-wrap:anywhere]">
      {sentence ? <p>{sentence}</p> : null}
      {fields.length ? (
        <ul className="grid gap-0.5">
          {fields.map(([name, before, after]) => (
            <li key={name}>
              <span className="font-semibold first-letter:uppercase">{name}:</span>{" "}
              {before !== null ? (
                <>
                  <span className="text-stone-600 line-through decoration-stone-400">{before}</span> →{" "}
                </>
              ) : null}
              <span>{after}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** An entity's own history, for its page (an order, a customer, an account). */
export function AuditHistory({ entries, title = "Audit history", className = "" }: { entries: AuditEntryView[]; title?: string; className?: string }) {
  return (
    <Panel id="audit-history" title={title} className={className}>
      {entries.length === 0 ? (
        <p className="text-stone-600">No staff changes yet.</p>
      ) : (
        <ol className="grid gap-3 text-sm">
          {entries.map((e) => (
            <li key={e.id} className="border-l-2 border-stone-300 pl-3">
              <p>
                <span className="font-semibold">{actionWords(e.action)}</span> by {e.staff.name}
                <span className="text-stone-600">
                  {" "}
                  via {VIA[e.via] ?? e.via}
                  {e.token_name ? ` “${e.token_name}”` : ""}, <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </span>
              </p>
              <Changes entry={e} />
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

export { VIA as AUDIT_VIA_LABELS };
