import { smtpTransport } from './email.js';
import { Transports } from './outbox.js';
import { webhookSmsTransport } from './sms.js';
import { testDelivery } from './test-delivery.js';

export * from './outbox.js';
export { CAPTURE_ALL, parseTestDeliveryTo, testDelivery, type TestDelivery } from './test-delivery.js';

/** Transport settings from the environment (config.ts); absent ones leave messages in the outbox. */
export interface NotifyConfig {
  smtpUrl?: string;
  smtpFrom?: string;
  smsWebhookUrl?: string;
  smsWebhookSecret?: string;
  /** Milliseconds between outbox rounds. */
  intervalMs?: number;
  /**
   * TESSERA_TEST_DELIVERY_TO: the test-mode recipients really sent to (`@domain`, an address, a
   * phone number, `*`); every other test-mode message is captured in the outbox. Default none.
   */
  testDeliveryTo?: string[];
}

export const DEFAULT_FROM = 'receipts@localhost';

export function createTransports(cfg: NotifyConfig = {}): Transports {
  return {
    email: cfg.smtpUrl ? smtpTransport({ url: cfg.smtpUrl, from: cfg.smtpFrom ?? DEFAULT_FROM }) : undefined,
    sms: cfg.smsWebhookUrl ? webhookSmsTransport({ url: cfg.smsWebhookUrl, secret: cfg.smsWebhookSecret }) : undefined,
    testDelivery: testDelivery(cfg.testDeliveryTo),
  };
}
