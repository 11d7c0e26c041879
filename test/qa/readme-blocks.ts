import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../server/paths.js';

/** The README's quick-start code blocks, by the name in the `<!-- quickstart:NAME -->` line above each. */
export function quickstart(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = new RegExp(`<!-- quickstart:${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!m) throw new Error(`README.md has no quickstart:${name} block`);
  return m[1];
}

/** The names of every `<!-- quickstart:NAME -->` block of the README, in order. */
export function quickstartNames(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/<!-- quickstart:([\w-]+) -->/g)].map((m) => m[1]);
}

/** A block with the README's placeholders replaced by a running gateway's values. */
export function filled(block: string, values: { url: string; publicKey?: string; privateKey?: string; port?: number }): string {
  let out = block.replaceAll('http://127.0.0.1:8080', values.url);
  if (values.publicKey) out = out.replaceAll('test_pk_…', values.publicKey);
  if (values.privateKey) out = out.replaceAll('test_sk_…', values.privateKey);
  if (values.port) out = out.replaceAll('3000', String(values.port));
  return out;
}
