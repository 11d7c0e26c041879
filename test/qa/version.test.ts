import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { MAIN } from '../proof/helpers.js';

// `tessera --version` names the build's commit: scripts/build-info.mjs (the last step of
// `npm run build`) writes dist/build-info.json, which the command reads.

const SCRIPT = join(ROOT, 'scripts', 'build-info.mjs');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const work = mkdtempSync(join(tmpdir(), 'tessera-version-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const buildInfo = (env: Record<string, string> = {}, script = SCRIPT) => {
  const out = join(work, `info-${Math.random().toString(36).slice(2)}.json`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, BUILD_INFO_OUT: out, ...env };
  if (!env.TESSERA_COMMIT) delete childEnv.TESSERA_COMMIT;
  execFileSync(process.execPath, [script], { env: childEnv });
  return JSON.parse(readFileSync(out, 'utf8'));
};

describe('scripts/build-info.mjs', () => {
  test('in this checkout: the version and HEAD, marked -dirty when tracked files differ', () => {
    const head = git('rev-parse', '--short=12', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    expect(buildInfo()).toEqual({ version: VERSION, commit: dirty ? `${head}-dirty` : head });
  });

  test('TESSERA_COMMIT wins (a Docker build has no .git)', () => {
    expect(buildInfo({ TESSERA_COMMIT: 'abc1234' }).commit).toBe('abc1234');
  });

  test('outside a git repository, or inside another project\'s: unknown', () => {
    const copy = join(work, 'unpacked');
    mkdirSync(join(copy, 'scripts'), { recursive: true });
    copyFileSync(SCRIPT, join(copy, 'scripts', 'build-info.mjs'));
    writeFileSync(join(copy, 'package.json'), JSON.stringify({ version: '9.9.9' }));
    expect(buildInfo({ GIT_CEILING_DIRECTORIES: work }, join(copy, 'scripts', 'build-info.mjs'))).toEqual({ version: '9.9.9', commit: 'unknown' });
    execFileSync('git', ['init', '-q', work]); // the copy now sits in a repository that is not its own
    expect(buildInfo({}, join(copy, 'scripts', 'build-info.mjs')).commit).toBe('unknown');
  });
});

test('tessera --version prints the commit build-info.json names, or unknown without it', () => {
  const file = join(ROOT, 'dist', 'build-info.json');
  const saved = (() => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  })();
  try {
    writeFileSync(file, JSON.stringify({ version: VERSION, commit: 'feedc0ffee12' }));
    expect(execFileSync(process.execPath, [MAIN, '--version'], { encoding: 'utf8' }).trim()).toBe(`tessera ${VERSION} (commit feedc0ffee12)`);
    rmSync(file);
    expect(execFileSync(process.execPath, [MAIN, '--version'], { encoding: 'utf8' }).trim()).toBe(`tessera ${VERSION} (commit unknown)`);
  } finally {
    if (saved !== null) writeFileSync(file, saved);
    else rmSync(file, { force: true });
  }
});
