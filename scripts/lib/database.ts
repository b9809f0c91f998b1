import { sql } from "drizzle-orm";
import { openPostgres } from "../../server/db/client.ts";

/**
 * A tool's own PostgreSQL database on the server at `adminUrl` (whose database
 * is only used to create it): created when missing, or dropped and created
 * afresh with `fresh`. Answers its URL.
 */
export async function toolDatabase(adminUrl: string, name: string, options: { fresh?: boolean } = {}): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Database name ${name}: lower-case letters, digits and underscores only.`);
  const admin = await openPostgres(adminUrl, { max: 1 });
  try {
    if (options.fresh) await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    const exists = (await admin.db.execute(sql`select 1 from pg_database where datname = ${name}`)) as unknown as { rows: unknown[] };
    if (exists.rows.length === 0) await admin.db.execute(sql.raw(`create database ${name}`));
  } finally {
    await admin.close();
  }
  return adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
}
