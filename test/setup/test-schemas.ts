// Global setup of the API projects on PostgreSQL: the schemas this run's files make share one
// prefix (test/helpers/test-db.ts), and whatever is left of them when the run ends is dropped:
// the schemas handed back clean for a next file that never came, one per worker at most. The
// prefix reaches the workers as inject('testSchemaPrefix'), typed in test-db.ts.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): (() => Promise<void>) | void {
  const prefix = `t_${randomBytes(3).toString('hex')}_`;
  project.provide('testSchemaPrefix', prefix);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  return async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const left = await sql<{ nspname: string }[]>`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, ${prefix})`;
      for (const { nspname } of left) await sql.unsafe(`DROP SCHEMA "${nspname}" CASCADE`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
}
