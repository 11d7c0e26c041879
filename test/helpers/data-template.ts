// A migrated embedded data directory for a gateway that does not test the first start itself
// (test/setup/data-template.ts makes this run's private folder). The template is what the built
// gateway's own openDatabase (dist/server/db/index.js) leaves after initdb and every migration,
// closed cleanly: schema_migrations complete, and nothing of a first start's own work: no
// data.key, no merchant, no vault_canary row, no lock or control file. So a gateway started on a
// copy still does everything a first start does that is not initdb or a migration: it generates
// data.key (or takes TESSERA_DATA_KEY, whatever key it is), writes its canary, makes the demo
// merchant with --dev and prints its keys, exactly as on an empty directory. Tests of the first
// start itself (initdb, migrations and their log lines, the modes of a new tree, disk full at
// start) keep an empty directory (mkdtemp), as before.
//
// Built once per run, by the first caller: into a folder of its own, then renamed into place
// (atomic: if two workers ever built at once, one rename wins and the other's copy is removed).
// Copies keep the template's modes (files 0600, folders 0700: db/private-dir.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { ROOT } from '../../server/paths.js';

const execFileP = promisify(execFile);

const DB_MODULE = join(ROOT, 'dist', 'server', 'db', 'index.js');
const BUILD = `const { openDatabase } = await import(process.argv[1]);
const db = await openDatabase({ dataDir: process.argv[2] });
await db.close();`;

let ready: Promise<string | null> | null = null;

function templateRoot(): string {
  try {
    return inject('dataTemplateRoot') ?? '';
  } catch {
    return ''; // a project without the global setup
  }
}

async function build(root: string): Promise<string> {
  const dir = join(root, 'data');
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  if (!existsSync(DB_MODULE)) throw new Error(`${DB_MODULE} missing: run npm run build first`);
  const work = await mkdtemp(join(root, 'building-'));
  const data = join(work, 'data');
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'TESSERA_DATA_DIR', 'TESSERA_DATA_KEY', 'TESSERA_DATA_KEYS_RETIRED']) delete env[k];
  await execFileP(process.execPath, ['--input-type=module', '-e', BUILD, DB_MODULE, data], { cwd: ROOT, env, timeout: 300_000 });
  try {
    await rename(data, dir);
  } catch (err) {
    if (!existsSync(join(dir, 'PG_VERSION'))) throw err; // another worker's rename won: use its copy
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return dir;
}

/** This run's migrated template, built on first use; null when off (TESSERA_DATA_TEMPLATE=off) or outside the set-up projects. */
export function dataTemplate(): Promise<string | null> {
  const root = templateRoot();
  if (!root) return Promise.resolve(null);
  ready ??= build(root);
  return ready;
}

/**
 * Fills `dir` (missing, or an empty folder such as mkdtemp's) with a copy of the migrated template
 * and returns it; without a template it is left as it is, so the gateway
 * makes it on its first start as before.
 */
export async function migratedDataDir(dir: string): Promise<string> {
  const template = await dataTemplate();
  if (template) await copyTree(template, dir);
  return dir;
}

/**
 * The template's ~1,200 files into `dir` (created if missing), modes kept. The system's `cp -a`
 * where there is one: Node's own `fs.cp` took ~0.5 s of CPU a copy against ~0.08 s, and a run
 * copies the template for nearly every gateway it starts (docs/decisions/test-suite-time.md).
 */
async function copyTree(from: string, dir: string): Promise<void> {
  if (process.platform === 'win32') {
    await cp(from, dir, { recursive: true, errorOnExist: true, force: false });
    return;
  }
  await mkdir(dir, { recursive: true });
  await execFileP('cp', ['-a', `${from}/.`, dir]);
}

/** mkdtemp(prefix) in the system temp folder, holding a copy of the migrated template. */
export async function migratedTempDir(prefix: string): Promise<string> {
  return migratedDataDir(mkdtempSync(join(tmpdir(), prefix)));
}
