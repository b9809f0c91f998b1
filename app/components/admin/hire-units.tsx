import { Form, useNavigation } from "react-router";
import { FieldError } from "./field-error.tsx";
import { STACKED } from "./stacked-table.ts";
import { TableOrCards } from "./table-or-cards.tsx";
import { Options } from "./options.tsx";

export interface HireUnitRow {
  id: number;
  asset_number: string;
  serial_number: string;
  active: boolean;
  /** The hire depot it is based at (issue 30). */
  depot: { slug: string; name: string };
  allocation: { start: string; end: string; kind: string } | null;
}

/** What the units' last form post did: which unit (or the add form), what was sent, and each refused field. */
export interface HireUnitResult {
  ok: boolean;
  intent: string;
  unitId?: number;
  errors?: Record<string, string[]>;
  sent?: { asset_number: string; serial_number: string };
}

const control = "min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal disabled:bg-stone-100";
const dateText = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/**
 * A hire item's units: each unit's asset and serial numbers (edited in its
 * row), whether it is in the fleet, the hold or booking it is out on now or
 * next, and Retire or Bring back; then a form to add one. A table on a
 * desktop, a card per unit on a phone. Read-only without catalogue.manage.
 */
export function HireUnits({ units, canManage, result, depots = [] }: { units: HireUnitRow[]; canManage: boolean; result: HireUnitResult | undefined; depots?: { slug: string; name: string }[] }) {
  const busy = useNavigation().state === "submitting";
  const mine = (id: number) => (result && !result.ok && result.unitId === id ? result : undefined);
  const adding = result && !result.ok && result.intent === "add-unit" ? result : undefined;
  const active = units.filter((u) => u.active).length;

  return (
    <section aria-labelledby="units-heading" className="grid gap-3">
      <h2 id="units-heading" className="text-lg font-bold">
        Units <span className="text-base font-normal text-stone-700">({active} in the fleet{units.length > active ? `, ${units.length - active} retired` : ""})</span>
      </h2>
      {units.length === 0 ? (
        <p className="rounded-lg border border-stone-200 bg-white p-4 text-sm">No units yet: the storefront shows it as unavailable until one is added.</p>
      ) : (
        <TableOrCards
          caption="The hire item's units, in the fleet first"
          columns={[{ label: "Asset number" }, { label: "Serial number" }, { label: "Depot" }, { label: "State" }, { label: "Out on hire" }, ...(canManage ? [{ label: "Actions", header: <span className="sr-only">Actions</span> }] : [])]}
        >
              {units.map((u) => {
                const formId = `unit-${u.id}`;
                const refused = mine(u.id);
                const shown = refused?.sent ?? u;
                return (
                  <tr key={u.id} className={`${STACKED.row} ${u.active ? "max-lg:bg-white" : "bg-stone-100 text-stone-700"}`} data-testid="hire-unit">
                    <td className={STACKED.cell} data-label="Asset number">
                      <UnitText formId={formId} name="asset_number" label="Asset number" asset={u.asset_number} value={shown.asset_number} shownValue={u.asset_number} maxLength={40} errors={refused?.errors?.asset_number} errorId={`${formId}-asset-error`} editable={canManage} />
                    </td>
                    <td className={STACKED.cell} data-label="Serial number">
                      <UnitText formId={formId} name="serial_number" label="Serial number" asset={u.asset_number} value={shown.serial_number} shownValue={u.serial_number || "—"} maxLength={100} errors={refused?.errors?.serial_number} errorId={`${formId}-serial-error`} editable={canManage} />
                    </td>
                    <td className={STACKED.cell} data-label="Depot">
                      {canManage && depots.length > 1 ? (
                        <span className="grid gap-1">
                          <select form={formId} name="depot" defaultValue={u.depot.slug} aria-label={`Depot of unit ${u.asset_number}`} aria-invalid={!!refused?.errors?.depot || undefined} aria-describedby={refused?.errors?.depot ? `${formId}-depot-error` : undefined} className={control}>
                            <Options of={depots} value={(d) => d.slug} label={(d) => d.name} />
                          </select>
                          <FieldError id={`${formId}-depot-error`} messages={refused?.errors?.depot} />
                        </span>
                      ) : (
                        u.depot.name
                      )}
                    </td>
                    <td className={STACKED.cell} data-label="State">
                      <span className={`w-fit rounded px-1.5 py-0.5 text-xs font-semibold ${u.active ? "bg-green-100 text-green-900" : "bg-stone-300 text-stone-800"}`}>{u.active ? "In the fleet" : "Retired"}</span>
                    </td>
                    <td className={STACKED.cell} data-label="Out on hire">
                      {u.allocation ? (
                        <span>
                          {u.allocation.kind === "booking" ? "Booked" : "Held"} {dateText(u.allocation.start)} to {dateText(u.allocation.end)}
                        </span>
                      ) : (
                        <span className="text-stone-600">Free</span>
                      )}
                    </td>
                    {canManage ? (
                      <td className={STACKED.cell} data-label="Actions">
                        <span className="flex flex-wrap gap-2">
                          <Form method="post" id={formId} className="contents">
                            <input type="hidden" name="unit_id" value={u.id} />
                            <button type="submit" name="intent" value="edit-unit" className="btn-secondary min-h-10" disabled={busy} aria-label={`Save unit ${u.asset_number}`}>
                              Save
                            </button>
                            <button
                              type="submit"
                              name="intent"
                              value={u.active ? "retire-unit" : "reinstate-unit"}
                              className={`btn-secondary min-h-10 ${u.active ? "text-red-800" : ""}`}
                              disabled={busy}
                              aria-label={`${u.active ? "Retire" : "Bring back"} unit ${u.asset_number}`}
                            >
                              {u.active ? "Retire" : "Bring back"}
                            </button>
                          </Form>
                        </span>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
        </TableOrCards>
      )}
      {canManage ? (
        <Form method="post" className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" aria-labelledby="add-unit-heading">
          <h3 id="add-unit-heading" className="text-base font-bold sm:col-span-3">
            Add a unit
          </h3>
          <input type="hidden" name="intent" value="add-unit" />
          <label className="grid content-start gap-1 text-sm font-semibold">
            Asset number
            <FieldError id="add-unit-asset-error" messages={adding?.errors?.asset_number} />
            <input
              name="asset_number"
              key={`asset-${JSON.stringify(adding?.sent ?? null)}`}
              defaultValue={adding?.sent?.asset_number ?? ""}
              required
              maxLength={40}
              spellCheck={false}
              aria-invalid={!!adding?.errors?.asset_number || undefined}
              aria-describedby={adding?.errors?.asset_number ? "add-unit-asset-error" : undefined}
              className={`${control} font-mono`}
            />
          </label>
          <label className="grid content-start gap-1 text-sm font-semibold">
            Serial number (optional)
            <FieldError id="add-unit-serial-error" messages={adding?.errors?.serial_number} />
            <input
              name="serial_number"
              key={`serial-${JSON.stringify(adding?.sent ?? null)}`}
              defaultValue={adding?.sent?.serial_number ?? ""}
              maxLength={100}
              spellCheck={false}
              aria-invalid={!!adding?.errors?.serial_number || undefined}
              aria-describedby={adding?.errors?.serial_number ? "add-unit-serial-error" : undefined}
              className={`${control} font-mono`}
            />
          </label>
          <button type="submit" className="btn-primary min-h-10" disabled={busy}>
            Add the unit
          </button>
        </Form>
      ) : null}
    </section>
  );
}

/** A unit's asset or serial number in its row: a box tied to the row's form for a member who may change it, else the text. */
function UnitText({ formId, name, label, asset, value, shownValue, maxLength, errors, errorId, editable }: { formId: string; name: string; label: string; asset: string; value: string; shownValue: string; maxLength: number; errors: string[] | undefined; errorId: string; editable: boolean }) {
  if (!editable) return <span className="font-mono">{shownValue}</span>;
  return (
    <span className="grid gap-1">
      <input form={formId} name={name} defaultValue={value} maxLength={maxLength} aria-label={`${label} of unit ${asset}`} aria-invalid={!!errors || undefined} aria-describedby={errors ? errorId : undefined} className={`${control} font-mono`} />
      <FieldError id={errorId} messages={errors} />
    </span>
  );
}
