// Global setup of the proof, QA and e2e projects: a private folder for this run's migrated data
// directory template (test/helpers/data-template.ts). A first start on an empty embedded data
// directory (initdb and every migration in PGlite) costs ~12 s of CPU, reopening a migrated one
// ~2.8 s; gateways that do not test the first start itself start from a copy of one made once per
// run. Only the folder is made here (mkdtemp, 0700, this run's own, removed at the end): the first
// file that asks for a copy builds the template in it, so a run that needs none pays nothing.
// TESSERA_DATA_TEMPLATE=off: every gateway gets an empty directory, as before.
// TESSERA_DATA_TEMPLATE_ROOT (set by test/run-suites.mjs, which owns and removes it): one folder for
// the whole `npm test`, so the template is built once for the proof, e2e and QA suites, not once each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's template folder ('' when off). */
    dataTemplateRoot: string;
  }
}

export default function setup(project: TestProject): () => void {
  if (process.env.TESSERA_DATA_TEMPLATE === 'off') {
    project.provide('dataTemplateRoot', '');
    return () => {};
  }
  const shared = process.env.TESSERA_DATA_TEMPLATE_ROOT;
  if (shared) {
    project.provide('dataTemplateRoot', shared);
    return () => {};
  }
  const root = mkdtempSync(join(tmpdir(), 'tessera-template-'));
  project.provide('dataTemplateRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
