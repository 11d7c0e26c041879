#!/usr/bin/env node
// Part of `npm run build`: writes dist/build-info.json, { version, commit }, which
// `tessera --version` prints ("tessera 0.1.0 (commit 1a2b3c4d5e6f)"). The commit is
// TESSERA_COMMIT when set (a Docker build has no .git: --build-arg TESSERA_COMMIT=…), else this
// checkout's HEAD (with "-dirty" when tracked files differ from it), else "unknown": a tarball,
// or a folder inside another project's repository, is not this package's history.
// BUILD_INFO_OUT writes elsewhere (tests).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function git(args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

function commit() {
  if (process.env.TESSERA_COMMIT) return process.env.TESSERA_COMMIT.trim();
  try {
    if (realpathSync(git(['rev-parse', '--show-toplevel'])) !== realpathSync(root)) return 'unknown';
    const head = git(['rev-parse', '--short=12', 'HEAD']);
    const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
    return dirty ? `${head}-dirty` : head;
  } catch {
    return 'unknown'; // no git, or not a repository
  }
}

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = process.env.BUILD_INFO_OUT || join(root, 'dist', 'build-info.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ version, commit: commit() }) + '\n');
