// The decisions stay usable (issue 31, item 4): docs/decisions/ holds one file per topic, each the
// rule as it holds now and under 300 lines; its README.md is the index, listing every file and only
// files that exist; and nothing in the repository points at the session journal those files
// replaced (it is in git history only). Pure file reads: the unit project runs it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = join(ROOT, 'docs', 'decisions');
const MAX_LINES = 300;

const topicFiles = () => readdirSync(DIR).filter((f) => f.endsWith('.md')).sort();
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The repository's files: tracked and new ones git does not ignore; without git, a walk of the tree. */
function repoFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    return out.split('\0').filter((f) => f && existsSync(join(ROOT, f)));
  } catch {
    const skip = new Set(['.git', 'node_modules', 'dist', 'test-results', 'playwright-report']);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (skip.has(e.name)) continue;
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) files.push(relative(ROOT, p));
      }
    };
    walk(ROOT);
    return files;
  }
}

describe('docs/decisions', () => {
  test('holds topic files and an index', () => {
    const files = topicFiles();
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(10);
  });

  test(`every file is under ${MAX_LINES} lines`, () => {
    const long = topicFiles()
      .map((f) => ({ f, lines: lineCount(readFileSync(join(DIR, f), 'utf8')) }))
      .filter(({ lines }) => lines >= MAX_LINES);
    expect(long, `split these, or move history to git: ${long.map(({ f, lines }) => `${f} (${lines})`).join(', ')}`).toEqual([]);
  });

  test('the index lists every file, once, and only files that exist', () => {
    const index = readFileSync(join(DIR, 'README.md'), 'utf8');
    const linked = [...index.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]);
    const local = linked.filter((l) => !/^[a-z]+:/i.test(l));
    const topics = topicFiles().filter((f) => f !== 'README.md');
    const missing = topics.filter((f) => !local.includes(f));
    expect(missing, `add a line for each to docs/decisions/README.md: ${missing.join(', ')}`).toEqual([]);
    const dangling = local.filter((l) => !existsSync(join(DIR, l)) || !statSync(join(DIR, l)).isFile());
    expect(dangling, `the index links files that do not exist: ${dangling.join(', ')}`).toEqual([]);
    const twice = local.filter((l, i) => local.indexOf(l) !== i);
    expect(twice, `listed twice: ${twice.join(', ')}`).toEqual([]);
  });

  test('no file of the repository refers to the removed journal', () => {
    // Spelled in parts so that this file does not match itself.
    const needles = [['docs', 'decisions.md'].join('/'), ['..', 'decisions.md'].join('/')];
    const hits: string[] = [];
    for (const f of repoFiles()) {
      const path = join(ROOT, f);
      const size = statSync(path).size;
      if (size === 0 || size > 4 << 20) continue;
      const buf = readFileSync(path);
      if (buf.includes(0)) continue; // binary
      const text = buf.toString('utf8');
      text.split('\n').forEach((line, i) => {
        if (needles.some((n) => line.includes(n))) hits.push(`${f}:${i + 1}`);
      });
    }
    expect(hits, `point these at the topic file in docs/decisions/ instead: ${hits.join(', ')}`).toEqual([]);
  });
});
