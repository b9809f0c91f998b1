import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ReadPdf {
  /** Each page's text as poppler lays it out (`pdftotext -layout`): what a person reads, columns kept on one line. */
  pages: string[];
  text: string;
  /** `pdfinfo`'s fields: Title, Producer, Pages, PDF version, … */
  info: Record<string, string>;
}

/**
 * Checks the file's cross-reference table (each offset lands on its object),
 * then reads it back with poppler (pdfinfo, pdftotext), which must not
 * complain. Poppler is poppler-utils on Debian.
 */
export async function readPdf(pdf: Buffer): Promise<ReadPdf> {
  const s = pdf.toString("latin1");
  if (!s.startsWith("%PDF-1.")) throw new Error("not a PDF: no %PDF- header");
  if (!s.trimEnd().endsWith("%%EOF")) throw new Error("no %%EOF at the end");
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(s)?.[1]);
  if (s.slice(startxref, startxref + 4) !== "xref") throw new Error(`startxref ${startxref} does not point at the xref table`);
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(s.slice(startxref)) ?? [];
  const entries = s.slice(startxref).split("\n").slice(2, 2 + Number(count));
  entries.forEach((e, i) => {
    if (e.endsWith("f ")) return;
    const offset = Number(e.slice(0, 10));
    if (!s.slice(offset).startsWith(`${Number(first) + i} 0 obj`)) throw new Error(`xref entry ${Number(first) + i} points at ${offset}, not at its object`);
  });

  const dir = await mkdtemp(join(tmpdir(), "pdf-test-"));
  try {
    const file = join(dir, "doc.pdf");
    await writeFile(file, pdf);
    const [info, text] = await Promise.all([run("pdfinfo", [file]), run("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"])]);
    if (info.stderr.trim() || text.stderr.trim()) throw new Error(`poppler complained: ${info.stderr}${text.stderr}`);
    const fields = Object.fromEntries(
      info.stdout
        .split("\n")
        .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
        .filter((m) => m !== null)
        .map((m) => [m[1]!, m[2]!]),
    );
    // pdftotext ends every page with a form feed.
    const pages = text.stdout.split("\f").slice(0, -1);
    return { pages, text: pages.join("\n"), info: fields };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A pattern for cells on one line in `-layout` text: the cells in order, spaces (not line breaks) between. */
export function row(...cells: string[]): RegExp {
  // Whole cells only: "1" does not match the start of "10".
  return new RegExp(`(?<!\\S)${cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(" +")}(?!\\S)`);
}
