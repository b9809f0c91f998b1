import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Db } from "../../db/client.ts";
import { normalisePostcode } from "./service.ts";
import { postcodeAddresses } from "./schema.ts";

/** Splits one CSV line, honouring double quotes ("a, b" and doubled "" inside). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(field);
      field = "";
    } else field += c;
  }
  out.push(field);
  return out.map((f) => f.trim());
}

export interface ImportReport {
  imported: number;
  skipped: number;
}

/**
 * Reads a CSV with a header row naming `postcode, line_1, line_2, line_3, town, county`
 * (any order) into the address table, 1,000 rows at a time. Rows with a malformed
 * postcode or no first line or town are skipped and counted.
 */
export async function importPostcodeCsv(db: Db, file: string, onProgress?: (fraction: number, report: ImportReport) => void): Promise<ImportReport> {
  const size = statSync(file).size || 1;
  const stream = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const report: ImportReport = { imported: 0, skipped: 0 };
  let header: string[] | null = null;
  let batch: (typeof postcodeAddresses.$inferInsert)[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await db.insert(postcodeAddresses).values(batch);
    report.imported += batch.length;
    batch = [];
    onProgress?.(Math.min(1, stream.bytesRead / size), report);
  };
  for await (const raw of lines) {
    if (!raw.trim()) continue;
    const cells = parseCsvLine(raw);
    if (!header) {
      header = cells.map((c) => c.toLowerCase());
      if (!header.includes("postcode") || !header.includes("line_1") || !header.includes("town")) {
        throw new Error("The CSV needs a header row with at least postcode, line_1 and town.");
      }
      continue;
    }
    const get = (name: string) => cells[header!.indexOf(name)] ?? "";
    const postcode = normalisePostcode(get("postcode"));
    if (!postcode || !get("line_1") || !get("town")) {
      report.skipped += 1;
      continue;
    }
    batch.push({ postcode, line1: get("line_1"), line2: get("line_2"), line3: get("line_3"), town: get("town"), county: get("county") });
    if (batch.length >= 1000) await flush();
  }
  await flush();
  onProgress?.(1, report);
  return report;
}
