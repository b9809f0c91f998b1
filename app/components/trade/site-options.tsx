/** The options of a "Site" filter: all of the company's sites, then each (an archived one says so). */
export function SiteOptions({ sites }: { sites: { id: number; name: string; archived: boolean }[] }) {
  return (
    <>
      <option value="">All sites</option>
      {sites.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
          {s.archived ? " (archived)" : ""}
        </option>
      ))}
    </>
  );
}
