// docs/operations.md's PostgreSQL point-in-time recovery recipe, followed on a
// private cluster (initdb and pg_ctl on spare ports in a temporary folder):
// WAL archived with archive_command, a base backup with pg_basebackup, then a
// restore to a moment between two batches of orders gives back the first
// batch and not the second. Skipped where PostgreSQL 15's server binaries are
// not installed. As root (initdb refuses root), the steps run as `postgres`.
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../../test/until.ts";

const BIN = "/usr/lib/postgresql/15/bin";
const asRoot = process.getuid?.() === 0;
const available = existsSync(path.join(BIN, "initdb")) && existsSync(path.join(BIN, "pg_basebackup"));
const dir = available ? mkdtempSync(path.join(tmpdir(), "tc-pitr-")) : "";
const started: string[] = [];

/** One of PostgreSQL's programs, as the folder's owner; its output. */
function pg(program: string, args: string[]): string {
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(BIN, program), ...args]] : [path.join(BIN, program), args];
  return execFileSync(command, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}
const sql = (port: number, text: string) => pg("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-Atq", "-c", text]);
/** Two ports unlikely to be taken: the private cluster and its restored copy. */
const PRIMARY = 54_000 + (process.pid % 500) * 2;
const RESTORED = PRIMARY + 1;

afterAll(() => {
  for (const data of started) {
    try {
      pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // Already stopped.
    }
  }
  if (dir && !process.env.KEEP_PITR) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!available)("PostgreSQL point-in-time recovery (the recipe in docs/operations.md)", () => {
  it("restores a base backup and the archived WAL up to a moment, and no further", async () => {
    if (asRoot) {
      chownSync(dir, Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })), Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })));
    }
    chmodSync(dir, 0o700);
    const primary = path.join(dir, "primary");
    const archive = path.join(dir, "wal-archive");
    const base = path.join(dir, "base");
    const restored = path.join(dir, "restored");
    pg("initdb", ["-D", primary, "-U", "postgres", "--auth=trust"]);
    // Step 1 of the recipe: archive every WAL segment (the settings docs/operations.md gives).
    appendFileSync(
      path.join(primary, "postgresql.conf"),
      [`port = ${PRIMARY}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`, "wal_level = replica", "archive_mode = on", `archive_command = 'mkdir -p ${archive} && test ! -f ${archive}/%f && cp %p ${archive}/%f'`, ""].join("\n"),
    );
    pg("pg_ctl", ["-D", primary, "-l", path.join(dir, "primary.log"), "-w", "start"]);
    started.push(primary);
    sql(PRIMARY, "create table orders (id int primary key)");

    // Step 2: a base backup (nightly, or weekly with the WAL between).
    pg("pg_basebackup", ["-h", "127.0.0.1", "-p", String(PRIMARY), "-U", "postgres", "-D", base, "-X", "stream", "-c", "fast"]);

    // Orders, the moment to go back to, then the orders that must not come back.
    sql(PRIMARY, "insert into orders select generate_series(1, 100)");
    const moment = sql(PRIMARY, "select now()");
    sql(PRIMARY, "insert into orders select generate_series(101, 150)");
    const segment = sql(PRIMARY, "select pg_walfile_name(pg_switch_wal())");
    await until(() => sql(PRIMARY, "select last_archived_wal from pg_stat_archiver") >= segment, { what: "the WAL segment archived" });
    pg("pg_ctl", ["-D", primary, "-w", "stop"]);

    // Step 3: restore to the moment, into a copy of the base backup.
    execFileSync("cp", ["-a", base, restored]);
    appendFileSync(
      path.join(restored, "postgresql.conf"),
      [`port = ${RESTORED}`, `restore_command = 'cp ${archive}/%f %p'`, `recovery_target_time = '${moment}'`, "recovery_target_action = 'promote'", "archive_mode = off", ""].join("\n"),
    );
    writeFileSync(path.join(restored, "recovery.signal"), "");
    if (asRoot) execFileSync("chown", ["postgres:postgres", path.join(restored, "recovery.signal")]);
    pg("pg_ctl", ["-D", restored, "-l", path.join(dir, "restored.log"), "-w", "start"]);
    started.push(restored);
    await until(() => sql(RESTORED, "select not pg_is_in_recovery()") === "t", { what: "the restored cluster promoted" });
    expect(sql(RESTORED, "select count(*) || ' ' || max(id) from orders")).toBe("100 100");
  }, 120_000);
});
