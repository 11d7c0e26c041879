// Global setup of the API projects: the migrated PGlite snapshot (server/db/snapshot.ts) is found
// in the per-user cache, or built there, before any worker starts. Without it the first files of
// a run on a fresh machine would each run initdb and every migration while one of them builds it.
import { ensureSnapshot } from '../../server/db/snapshot.js';

export default async function setup(): Promise<void> {
  if (process.env.TESSERA_SNAPSHOT === 'off') return;
  await ensureSnapshot();
}
