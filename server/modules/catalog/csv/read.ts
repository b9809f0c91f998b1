import { Transform, type Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { unescapeFormula } from "../../../lib/csv.ts";

/**
 * Reading a catalogue CSV (ADR 0036): bytes to text, then csv-parse, streamed
 * so a file of any size is read a batch of rows at a time. A source is a
 * function giving the file's bytes afresh: the file is read once to choose its
 * encoding, once to count its rows (so progress has a total, and malformed
 * quoting is found before anything is written), then once to import.
 */
export type CsvSource = () => Readable;

/** The largest file the import takes. The upload is cut off here, while it streams in. */
export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;

/** The most one row may hold, in characters: far above any product's fields (a description is at most 20,000), far below a file's worth. */
export const RECORD_MAX_CHARS = 1_000_000;

export type CsvEncoding = "utf-8" | "windows-1252";

/** A file that cannot be read as CSV: the spreadsheet row and column where it went wrong. */
export class CsvReadError extends Error {
  readonly row: number;
  readonly column?: string;
  constructor(row: number, message: string, column?: string) {
    super(message);
    this.name = "CsvReadError";
    this.row = row;
    this.column = column;
  }
}

/**
 * UTF-8 (a byte order mark or not) when every byte sequence is valid UTF-8;
 * otherwise Windows-1252, which is what Excel writes for "CSV (Comma
 * delimited)" on a UK Windows machine (£ is the single byte 0xA3 there).
 */
export async function detectEncoding(source: CsvSource): Promise<CsvEncoding> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const chunk of source()) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return "utf-8";
  } catch {
    return "windows-1252";
  }
}

/** Bytes in, text out, in the chosen encoding; a UTF-8 byte order mark is dropped. */
function decoding(encoding: CsvEncoding): Transform {
  const decoder = new TextDecoder(encoding);
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
}

/** One record of the file: its row number as a spreadsheet shows it (the header is row 1) and its cells. */
export interface CsvRecord {
  row: number;
  cells: string[];
}

/** The header's cells, for naming a column in a quoting error. */
const columnName = (header: string[] | null, index: unknown) => (typeof index === "number" && header?.[index]?.trim() ? header[index]!.trim() : typeof index === "number" ? `column ${index + 1}` : undefined);

function quotingMessage(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return 'A quoted cell starts here but its closing quote (") never comes: the rest of the file would be read into this one cell. Check the quotes in this cell.';
    case "CSV_INVALID_CLOSING_QUOTE":
      return 'A quoted cell\'s closing quote (") is followed by other characters. Inside a quoted cell, write a quote as two quotes ("").';
    case "CSV_MAX_RECORD_SIZE":
      return `This row holds over ${RECORD_MAX_CHARS.toLocaleString("en-GB")} characters: a quote is probably not closed, or a cell holds something that is not a product's field.`;
    case "INVALID_OPENING_QUOTE":
      return 'A quote (") appears in the middle of a cell that is not quoted. Quote the whole cell and write the quote as two quotes ("").';
    default:
      return `The file cannot be read as CSV here: ${error.message}`;
  }
}

/**
 * The file's records in order, header first, each cell with the export's
 * formula escape undone. Malformed quoting throws a CsvReadError naming the
 * row (as a spreadsheet numbers it) and the column.
 */
export async function* readRecords(source: CsvSource, encoding: CsvEncoding): AsyncGenerator<CsvRecord> {
  let header: string[] | null = null;
  // The header as soon as it is parsed (the stream parses ahead of what is read from it), to name a column in an error.
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: RECORD_MAX_CHARS,
    on_record: (record: string[]) => {
      header ??= record;
      return record;
    },
  });
  const input = source();
  const text = decoding(encoding);
  input.on("error", (err) => parser.destroy(err));
  text.on("error", (err) => parser.destroy(err));
  input.pipe(text).pipe(parser);
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      yield { row, cells: row === 1 ? record : record.map(unescapeFormula) };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const e = error as CsvError & { records?: number; index?: number };
      throw new CsvReadError((e.records ?? row) + 1, quotingMessage(error), columnName(header, e.index));
    }
    throw error;
  } finally {
    input.destroy();
  }
}

/** A record with nothing in any cell (a blank line, or a row of empty cells): skipped. */
export const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");
