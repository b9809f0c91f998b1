// `npm run bench`'s catalogue import step (issue 20, ADR 0036), against the
// production server: an owner exports the whole catalogue through the API,
// every price is changed, the file is dry-run and then imported back as a
// background job, while a visitor keeps asking for cached pages. Reports the
// seconds and rows per second of each phase, and the visitor's answers
// (latency and any that were not 200) while the import ran.
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { percentile } from "./client.ts";

export interface ImportBench {
  rows: number;
  exportSeconds: number;
  dryRunSeconds: number;
  importSeconds: number;
  rowsPerSecond: number;
  updated: number;
  refused: number;
  /** The 60-second target on PostgreSQL. */
  targetSeconds: number;
  visitor: { requests: number; notOk: number; p50: number; p99: number };
}

/** The back office's API as an EPOS would call it: a staff API token (no cookies, no request-forgery token, no two-factor prompt). */
class Staff {
  private readonly base: string;
  private readonly token: string;
  constructor(base: string, token: string) {
    this.base = base;
    this.token = token;
  }
  async request(method: string, url: string, body?: BodyInit, type?: string): Promise<Response> {
    return fetch(this.base + url, { method, body, headers: { authorization: `Bearer ${this.token}`, ...(type ? { "content-type": type } : {}) } });
  }
}

interface Status {
  state: string;
  rows_done: number;
  rows_total: number;
  report: { rows: number; updated: number; would_update: number; refused_rows: number; applied: boolean } | null;
  error: string;
}

async function finished(staff: Staff, id: number): Promise<Status> {
  for (;;) {
    const res = await staff.request("GET", `/api/admin/products/imports/${id}`);
    const status = (await res.json()) as Status;
    if (!["queued", "checking", "running"].includes(status.state)) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A visitor reading cached pages one after another until told to stop. */
function visitor(base: string, paths: string[]) {
  const times: number[] = [];
  let notOk = 0;
  let stop = false;
  const done = (async () => {
    for (let i = 0; !stop; i++) {
      const started = performance.now();
      const res = await fetch(base + paths[i % paths.length]).catch(() => null);
      await res?.arrayBuffer();
      times.push(performance.now() - started);
      if (res?.status !== 200) notOk += 1;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async end() {
      stop = true;
      await done;
      const sorted = [...times].sort((a, b) => a - b);
      return { requests: times.length, notOk, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    },
  };
}

export async function benchCatalogueImport(base: string, staffToken: string, pagePaths: string[]): Promise<ImportBench> {
  const staff = new Staff(base, staffToken);

  let started = performance.now();
  const exported = await staff.request("GET", "/api/admin/products/export.csv");
  if (exported.status !== 200) throw new Error(`The export answered ${exported.status}`);
  const csv = await exported.text();
  const exportSeconds = (performance.now() - started) / 1000;

  // Every price changed by a penny (down when it can, else up).
  const records = parse(csv, { bom: true }) as string[][];
  const column = records[0]!.indexOf("price_ex_vat");
  for (const record of records.slice(1)) {
    const pence = Math.round(Number(record[column]) * 100);
    record[column] = ((pence > 0 ? pence - 1 : pence + 1) / 100).toFixed(2);
  }
  const file = stringify(records);
  const form = () => {
    const body = new FormData();
    body.append("file", new Blob([file], { type: "text/csv" }), "bench-prices.csv");
    return body;
  };

  for (const path of pagePaths) await fetch(base + path).then((r) => r.arrayBuffer());
  const reader = visitor(base, pagePaths);
  started = performance.now();
  const checking = await staff.request("POST", "/api/admin/products/imports?dry_run=1", form());
  if (checking.status !== 202) throw new Error(`The dry run answered ${checking.status}: ${await checking.text()}`);
  const checked = await finished(staff, ((await checking.json()) as { id: number }).id);
  const dryRunSeconds = (performance.now() - started) / 1000;
  if (checked.state !== "done") throw new Error(`The dry run ended ${checked.state}: ${checked.error}`);

  started = performance.now();
  const applying = await staff.request("POST", `/api/admin/products/imports?dry_run=0`, form());
  if (applying.status !== 202) throw new Error(`The import answered ${applying.status}: ${await applying.text()}`);
  const applied = await finished(staff, ((await applying.json()) as { id: number }).id);
  const importSeconds = (performance.now() - started) / 1000;
  const visitorResult = await reader.end();
  if (applied.state !== "done" || !applied.report?.applied) throw new Error(`The import ended ${applied.state}: ${applied.error}`);
  const rows = applied.report.rows;
  return {
    rows,
    exportSeconds,
    dryRunSeconds,
    importSeconds,
    rowsPerSecond: Math.round(rows / importSeconds),
    updated: applied.report.updated,
    refused: applied.report.refused_rows,
    targetSeconds: 60,
    visitor: visitorResult,
  };
}
