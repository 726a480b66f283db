// `cairn migrate-store --to postgres://…`: copies a SQLite store into an empty PostgreSQL
// database (all or nothing), then verifies every table. Prints counts per table, what was left
// out and why, and the verification; exit 1 on a refusal or any mismatch.
import {
  isPgUrl,
  type LeftTable,
  migrateSqliteToPg,
  type MigrateStoreReport,
  StoreMissingError,
} from '../store/index.js';
import { UsageError } from './args.js';
import { readerDbPath } from './database.js';

export interface MigrateFlags {
  to?: string | undefined;
  from?: string | undefined;
  'dry-run'?: boolean | undefined;
  json?: boolean | undefined;
}

const rowsText = (n: number | null): string =>
  n === null ? '? rows' : n === 1 ? '1 row' : `${n} rows`;

function leftLines(report: MigrateStoreReport): string {
  const line = (verb: string, t: LeftTable): string =>
    `${verb} ${t.table} (${rowsText(t.rows)}): ${t.reason}\n`;
  return (
    report.reembed.map((t) => line('re-embed', t)).join('') +
    report.skipped.map((t) => line('skipped', t)).join('')
  );
}

function verificationLines(report: MigrateStoreReport): string {
  const bad = report.verification.filter((c) => !c.ok);
  if (bad.length === 0)
    return `verified ${report.verification.length} tables: row counts and content digests match\n`;
  return bad
    .map(
      (c) =>
        `MISMATCH ${c.table}: source ${rowsText(c.source.rows)} digest ${c.source.digest}, target ${rowsText(c.target.rows)} digest ${c.target.digest}\n`,
    )
    .join('');
}

/** The report as lines. */
export function migrateText(report: MigrateStoreReport): string {
  const total = report.tables.reduce((n, t) => n + t.rows, 0);
  let text = report.dryRun
    ? `dry run: ${report.from} → ${report.to} (nothing written)\n`
    : `copied ${report.from} → ${report.to} (schema version ${report.schemaVersion})\n`;
  for (const t of report.tables)
    text += `${report.dryRun ? 'would copy' : 'copied'} ${t.table}: ${rowsText(t.rows)}\n`;
  text += `${report.tables.length} tables, ${rowsText(total)}\n${leftLines(report)}`;
  if (report.dryRun)
    return (
      text +
      (report.targetHolds === undefined
        ? 'target: empty, the copy can go ahead\n'
        : `target: not empty (table ${report.targetHolds} holds rows), the copy would be refused\n`)
    );
  return text + verificationLines(report);
}

/** `cairn migrate-store`. */
export async function migrateStore(flags: MigrateFlags): Promise<void> {
  const to = flags.to ?? '';
  if (to === '') throw new UsageError('--to is required: cairn migrate-store --to postgres://…');
  if (!isPgUrl(to)) throw new UsageError('--to must be a postgres:// or postgresql:// URL');
  const from = readerDbPath(flags.from);
  let report: MigrateStoreReport;
  try {
    report = await migrateSqliteToPg({
      from: from.path,
      to,
      dryRun: flags['dry-run'] === true,
      onTable: (table, rows) => {
        if (process.stderr.isTTY && rows > 0)
          process.stderr.write(`  ${table}: ${rowsText(rows)}\n`);
      },
    });
  } catch (err) {
    if (!(err instanceof StoreMissingError)) throw err;
    const why = from.assumed === undefined ? '' : ` (${from.assumed})`;
    throw new Error(`no SQLite store at ${from.path}${why}: --from FILE names it`, { cause: err });
  }
  process.stdout.write(
    flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : migrateText(report),
  );
  if (!report.dryRun && !report.ok)
    throw new Error('verification failed: the target differs from the source (see above)');
}
