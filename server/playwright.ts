// `tessera-gateway/playwright`: Playwright Test with a Tessera gateway per worker.
//
//   import { test, expect } from 'tessera-gateway/playwright';
//   test('pays', async ({ page, gateway, cards, charge }) => { ... });
//
// Needs @playwright/test in the project (one copy: this module imports it). When two copies could
// load (a linked checkout of Tessera), extend your own: `base.extend(tesseraFixtures)` from
// 'tessera-gateway/playwright/fixtures', which does not import Playwright (it has fillCard too).
import { test as base, expect } from '@playwright/test';
import { TesseraTestFixtures, TesseraWorkerFixtures, tesseraFixtures } from './testing/fixtures.js';

export { FIELDS_FRAME, fillCard } from './testing/fill-card.js';
export type { CardInput, FillCardOptions } from './testing/fill-card.js';

export const test = base.extend<TesseraTestFixtures, TesseraWorkerFixtures>(tesseraFixtures);
export { expect, tesseraFixtures };
export type { TesseraTestFixtures, TesseraWorkerFixtures };
export * from './testing/index.js';
