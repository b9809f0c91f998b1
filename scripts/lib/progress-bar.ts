/**
 * A one-line progress bar on stderr for long commands (the catalogue import):
 * `[██████░░░░]  61% 61,000/100,000 rows  2,840 rows/s  14 s left`. Redrawn in
 * place on a terminal, at most 10 times a second; a plain line every 10% when
 * stderr is not a terminal (a log file).
 */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = Date.now();
  let lastDraw = 0;
  let lastTenth = -1;
  const n = (v: number) => v.toLocaleString("en-GB");
  function line(done: number, total: number): string {
    const share = total > 0 ? Math.min(done / total, 1) : 0;
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 && total > done ? ` ${Math.ceil((total - done) / rate)} s left` : "";
    const width = 24;
    const full = Math.round(share * width);
    return `${label} [${"█".repeat(full)}${"░".repeat(width - full)}] ${String(Math.round(share * 100)).padStart(3)}% ${n(done)}/${n(total)} rows ${n(Math.round(rate))} rows/s${left}`;
  }
  return {
    update(done: number, total: number) {
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        stream.write(`\r${line(done, total)}\x1b[K`);
      } else {
        const tenth = total > 0 ? Math.floor((done / total) * 10) : 0;
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        stream.write(`${line(done, total)}\n`);
      }
    },
    stop() {
      if (stream.isTTY) stream.write("\n");
    },
  };
}
