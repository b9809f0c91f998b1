import { PageHeader } from "../../components/admin/page-header.tsx";
import { Cell, Row, TableOrCards } from "../../components/admin/table-or-cards.tsx";
import { EmptyState } from "../../components/page.tsx";
import { formatDateTime } from "../../lib/admin/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/backups";
import { staffScreen } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Backups");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "backups.download");
  return { backups: await app.services.backups.list(actor) };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString("en-GB", { maximumFractionDigits: 1 })} MB`;

export default function AdminBackups({ loaderData }: Route.ComponentProps) {
  const { backups } = loaderData;
  return (
    <>
      <PageHeader title="Backups" intro="The shop backs itself up every night at 02:30 and keeps one a day for a week and one a week for a month. Each file holds every order, customer and photo: keep a copy somewhere other than this machine, and keep it safe. Downloads are recorded in the audit log." />
      {backups.length === 0 ? (
        <EmptyState title="No backups yet">The first nightly backup runs at 02:30; take one now on the server with npm run backup.</EmptyState>
      ) : (
        <>
          <p className="mb-4">
            <a href="/api/admin/backups/latest" download className="btn-primary min-h-10">
              Download the latest backup
            </a>
          </p>
          <TableOrCards caption="Backups, newest first" columns={[{ label: "Taken", sort: "descending" }, { label: "File" }, { label: "Size", className: "lg:text-right" }, { label: "sha256" }]}>
            {backups.map((b) => (
              <Row key={b.name}>
                <Cell label="Taken" head>
                  <time dateTime={b.taken_at}>{formatDateTime(b.taken_at)}</time>
                </Cell>
                <Cell label="File" className="font-mono">
                  <span>{b.name}</span>
                </Cell>
                <Cell label="Size" className="lg:text-right">
                  <span>{megabytes(b.bytes)}</span>
                </Cell>
                <Cell label="sha256" className="break-all font-mono text-xs">
                  <span>{b.sha256 ?? "missing"}</span>
                </Cell>
              </Row>
            ))}
          </TableOrCards>
        </>
      )}
    </>
  );
}
