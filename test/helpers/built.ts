// Whether this checkout's dist/ is the build of the commit checked out, so a test can use it
// instead of compiling the same tree again (docs/decisions/test-suite-time.md).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../server/paths.js';

export function headCommit(): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
}

/**
 * dist/ was built from `commit` with no tracked file changed (dist/build-info.json, written last
 * by npm run build: "-dirty" or another commit says otherwise), and no tracked file is changed now;
 * with `untracked`, no new file that git would pick up either (what a copy of the working tree takes).
 * A fresh clone's `npm test`, as CI runs it, is such a checkout.
 */
export function builtFromClean(commit = headCommit(), { untracked = false } = {}): boolean {
  let info: { commit?: unknown };
  try {
    info = JSON.parse(readFileSync(join(ROOT, 'dist', 'build-info.json'), 'utf8'));
  } catch {
    return false;
  }
  if (info.commit !== commit.slice(0, 12)) return false; // another commit, "-dirty", or "unknown"
  const status = execFileSync('git', ['status', '--porcelain', `--untracked-files=${untracked ? 'normal' : 'no'}`], { cwd: ROOT, encoding: 'utf8' });
  return status.trim() === '';
}
