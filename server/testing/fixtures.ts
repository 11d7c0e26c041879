import type {
  Fixtures, LaunchOptions, PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions, WorkerInfo,
} from '@playwright/test';
import { cards } from './cards.js';
import { ChromiumChoice, findChromium } from './chromium.js';
import type { ChargeResult, EmailMatch, OutboxMessage, SettleOptions, SettleSummary, WaitOptions } from './client.js';
import { TestGateway, TestGatewayOptions, startTestGateway } from './index.js';
import { WebhookReceiver, startWebhookReceiver } from './webhooks.js';

export { FIELDS_FRAME, fillCard } from './fill-card.js';
export type { CardInput, FillCardOptions } from './fill-card.js';

// The fixture definitions behind `tessera/playwright`, as a plain object with no runtime import
// of @playwright/test: `base.extend(tesseraFixtures)` works with whichever copy the project has.

export interface TesseraWorkerFixtures {
  /**
   * Worker option: startTessera options for this worker's gateway, e.g.
   * `test.use({ tesseraOptions: { settings: { cvv_check: true }, clockStart: '2030-01-01T00:00:00Z' } })`.
   */
  tesseraOptions: TestGatewayOptions;
  /** One real gateway per worker, in memory, on a free port; closed when the worker ends. */
  gateway: TestGateway;
  /** A local webhook endpoint per worker (cleared before each test). */
  webhookReceiver: WebhookReceiver;
  /**
   * Internal: before the worker's browser starts, fails naming every place tried when no Chromium
   * was found (Playwright's own, CHROMIUM_PATH, the system's). Tests that open no page never ask.
   */
  tesseraBrowserCheck: void;
}

export interface TesseraTestFixtures {
  /** Option: reset the worker's gateway before each test (default true); false shares state between tests. */
  tesseraReset: boolean;
  /**
   * Option: merchant settings for this test, applied after the reset, e.g.
   * `test.use({ tesseraSettings: { cvv_check: true } })` (works inside describe blocks too).
   */
  tesseraSettings: Record<string, unknown>;
  /** Internal, automatic: runs the reset and applies the settings. */
  tesseraIsolation: void;
  /** The test-card table (`cards.visa`, `cards.declined`, `cards.cvvFailure`, ..., `cards.bank`). */
  cards: typeof cards;
  /** Charges a token server-side with the private key: what the merchant's server does. */
  charge: (token: string, amount: number, extra?: Record<string, unknown>) => Promise<ChargeResult>;
  /**
   * Delivers everything due in the gateway's test environment (webhooks, callbacks, email, SMS,
   * due billings) and resolves with counts per kind: call it after an action instead of sleeping.
   */
  settle: (opts?: SettleOptions) => Promise<SettleSummary>;
  /** Waits until an email in the gateway's outbox matches (receipts), or fails listing the outbox. */
  waitForEmail: (match?: EmailMatch | ((m: OutboxMessage) => boolean), opts?: WaitOptions) => Promise<OutboxMessage>;
  /** The webhook endpoint, emptied for this test. */
  webhooks: WebhookReceiver;
}

type WorkerArgs = PlaywrightWorkerArgs & PlaywrightWorkerOptions;

/** The Chromium a worker gets when its config names none (see chromium.ts for the order). */
function chromiumFor(args: Pick<WorkerArgs, 'browserName' | 'connectOptions' | 'playwright'>, launchOptions: LaunchOptions, info: WorkerInfo): ChromiumChoice {
  const use = info.project.use;
  return findChromium({
    browserName: args.browserName,
    launchOptions,
    channel: use.channel,
    remote: !!args.connectOptions,
    headless: use.headless ?? launchOptions.headless ?? true,
    playwrightExecutable: args.playwright.chromium.executablePath(),
  });
}

export const tesseraFixtures: Fixtures<TesseraTestFixtures, TesseraWorkerFixtures, PlaywrightTestArgs & PlaywrightTestOptions, WorkerArgs> = {
  tesseraOptions: [{}, { scope: 'worker', option: true }],
  gateway: [
    async ({ tesseraOptions }, use) => {
      const gw = await startTestGateway(tesseraOptions);
      try {
        await use(gw);
      } finally {
        await gw.close();
      }
    },
    // The first start on a machine builds the database snapshot (a few seconds).
    { scope: 'worker', timeout: 120_000 },
  ],
  webhookReceiver: [
    async ({}, use) => {
      const receiver = await startWebhookReceiver();
      try {
        await use(receiver);
      } finally {
        await receiver.close();
      }
    },
    { scope: 'worker' },
  ],

  // A project with no Playwright config (or one that names no browser) runs in Chromium wherever
  // it is: the config's launchOptions (or test.use's) are kept, with an executablePath added only
  // when Playwright's own Chromium is not installed. Never throws: every worker reads launchOptions,
  // including those whose tests open no page.
  launchOptions: [
    async ({ launchOptions, browserName, connectOptions, playwright }, use, info) => {
      const choice = chromiumFor({ browserName, connectOptions, playwright }, launchOptions, info);
      await use('executablePath' in choice ? { ...launchOptions, executablePath: choice.executablePath } : launchOptions);
    },
    { scope: 'worker', box: true },
  ],
  tesseraBrowserCheck: [
    async ({ launchOptions, browserName, connectOptions, playwright }, use, info) => {
      const choice = chromiumFor({ browserName, connectOptions, playwright }, launchOptions, info);
      if (choice.source === 'none') throw new Error(choice.message);
      await use();
    },
    { scope: 'worker', box: true },
  ],
  // Playwright's browser, set up after the check (fixtures set up in the order they are named).
  browser: [async ({ tesseraBrowserCheck, browser }, use) => use(browser), { scope: 'worker', box: true }],

  tesseraReset: [true, { option: true }],
  // Auto: every test starts from an empty test environment (a reset takes a few milliseconds).
  tesseraSettings: [{}, { option: true }],
  tesseraIsolation: [
    async ({ gateway, tesseraReset, tesseraSettings }, use) => {
      if (tesseraReset) await gateway.reset();
      if (Object.keys(tesseraSettings).length) await gateway.settings(tesseraSettings);
      await use();
    },
    { auto: true },
  ],
  cards: async ({}, use) => use(cards),
  charge: async ({ gateway }, use) => use((token, amount, extra) => gateway.charge(token, amount, extra)),
  settle: async ({ gateway }, use) => use((opts) => gateway.settle(opts)),
  waitForEmail: async ({ gateway }, use) => use((match, opts) => gateway.waitForEmail(match, opts)),
  webhooks: async ({ webhookReceiver }, use) => {
    webhookReceiver.clear();
    await use(webhookReceiver);
  },
};
