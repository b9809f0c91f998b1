import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Db } from "../../db/client.ts";
import { normalisePostcode } from "./service.ts";
import { sql } from "drizzle-orm";
import { postcodeAddresses, postcodeLocations } from "./schema.ts";

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
  /** Addresses read in. */
  imported: number;
  /** Postcodes given a place (latitude and longitude). */
  located: number;
  skipped: number;
}

/** The header names a column goes by: ours, and the ONS Postcode Directory's (`pcds`, `lat`, `long`). */
const ALIASES: Record<string, string[]> = { postcode: ["postcode", "pcds", "pcd"], latitude: ["latitude", "lat"], longitude: ["longitude", "long", "lng"] };

/** A coordinate inside the British Isles' bounding box, or null (the ONS file marks postcodes without one as 99.999999). */
function coordinate(value: string, min: number, max: number): number | null {
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) && n >= min && n <= max ? n : null;
}

/**
 * Reads a CSV with a header row naming `postcode, line_1, line_2, line_3, town, county`
 * and, optionally, `latitude, longitude` (any order; the ONS Postcode Directory's
 * `pcds, lat, long` too) into the address and location tables, 1,000 rows at a
 * time. A row with a place and no address is a location only (the ONS file is
 * that). Rows with a malformed postcode, or neither an address nor a place,
 * are skipped and counted.
 */
export async function importPostcodeCsv(db: Db, file: string, onProgress?: (fraction: number, report: ImportReport) => void): Promise<ImportReport> {
  const size = statSync(file).size || 1;
  const stream = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const report: ImportReport = { imported: 0, located: 0, skipped: 0 };
  let header: string[] | null = null;
  let batch: (typeof postcodeAddresses.$inferInsert)[] = [];
  // By postcode, so a file with one row per address gives each postcode one place.
  let places = new Map<string, { postcode: string; lat: number; lng: number }>();
  const flush = async () => {
    if (batch.length === 0 && places.size === 0) return;
    if (batch.length) await db.insert(postcodeAddresses).values(batch);
    if (places.size) {
      await db
        .insert(postcodeLocations)
        .values([...places.values()])
        .onConflictDoUpdate({ target: postcodeLocations.postcode, set: { lat: sql`excluded.lat`, lng: sql`excluded.lng` } });
    }
    report.imported += batch.length;
    report.located += places.size;
    batch = [];
    places = new Map();
    onProgress?.(Math.min(1, stream.bytesRead / size), report);
  };
  // Each column's place in the header, found once: by its name or one of its aliases.
  let columns = new Map<string, number>();
  const column = (name: string) => columns.get(name) ?? -1;
  for await (const raw of lines) {
    if (!raw.trim()) continue;
    const cells = parseCsvLine(raw);
    if (!header) {
      const names = cells.map((c) => c.toLowerCase());
      header = names;
      const at = (name: string) => (ALIASES[name] ?? [name]).map((n) => names.indexOf(n)).find((i) => i >= 0) ?? -1;
      columns = new Map(["postcode", "line_1", "line_2", "line_3", "town", "county", "latitude", "longitude"].map((name) => [name, at(name)]));
      const addresses = column("line_1") >= 0 && column("town") >= 0;
      const located = column("latitude") >= 0 && column("longitude") >= 0;
      if (column("postcode") < 0 || (!addresses && !located)) {
        throw new Error("The CSV needs a header row with postcode and line_1 and town (addresses), or latitude and longitude (places), or both.");
      }
      continue;
    }
    const get = (name: string) => cells[column(name)] ?? "";
    const postcode = normalisePostcode(get("postcode"));
    const lat = coordinate(get("latitude"), 49, 61);
    const lng = coordinate(get("longitude"), -9, 3);
    const address = !!get("line_1") && !!get("town");
    if (!postcode || (!address && (lat === null || lng === null))) {
      report.skipped += 1;
      continue;
    }
    if (address) batch.push({ postcode, line1: get("line_1"), line2: get("line_2"), line3: get("line_3"), town: get("town"), county: get("county") });
    if (lat !== null && lng !== null) places.set(postcode, { postcode, lat, lng });
    if (batch.length >= 1000 || places.size >= 1000) await flush();
  }
  await flush();
  onProgress?.(1, report);
  return report;
}
