import { formatDateTime } from "../../lib/admin/format.ts";

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

function show(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** What changed, field by field: `status: paid → processing`. */
export function Changes({ before, after }: { before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (!fields.length) return <span className="text-stone-600">—</span>;
  return (
    <ul className="grid gap-0.5">
      {fields.map((field) => (
        <li key={field}>
          <span className="font-semibold">{field.replaceAll("_", " ")}:</span> {before ? <span className="text-stone-600 line-through decoration-stone-400">{show(before[field])}</span> : null}
          {before ? " → " : ""}
          <span>{show(after?.[field])}</span>
        </li>
      ))}
    </ul>
  );
}

/** An entity's own history, for its page (an order, a customer, an account). */
export function AuditHistory({ entries, title = "Audit history" }: { entries: AuditEntryView[]; title?: string }) {
  return (
    <section aria-labelledby="audit-history" className="rounded-lg border border-stone-200 bg-white p-4">
      <h2 id="audit-history" className="mb-3 text-lg font-bold">
        {title}
      </h2>
      {entries.length === 0 ? (
        <p className="text-stone-600">No staff changes yet.</p>
      ) : (
        <ol className="grid gap-3 text-sm">
          {entries.map((e) => (
            <li key={e.id} className="border-l-2 border-stone-300 pl-3">
              <p>
                <span className="font-semibold">{e.action}</span> by {e.staff.name}
                <span className="text-stone-600">
                  {" "}
                  via {VIA[e.via] ?? e.via}
                  {e.token_name ? ` “${e.token_name}”` : ""}, <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </span>
              </p>
              <Changes before={e.before} after={e.after} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export { VIA as AUDIT_VIA_LABELS };
