import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';

// SCHEDULER_INTERVAL_MS: the recurring-billing loop's period (spawned test gateways use short ones).
test('SCHEDULER_INTERVAL_MS: 5000 by default, a whole number of at least 100 ms', () => {
  expect(loadConfig({}).schedulerIntervalMs).toBe(5000);
  expect(loadConfig({ SCHEDULER_INTERVAL_MS: '250' }).schedulerIntervalMs).toBe(250);
  for (const bad of ['5', '99', '1.5', 'soon', '-300']) {
    expect(() => loadConfig({ SCHEDULER_INTERVAL_MS: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ SCHEDULER_INTERVAL_MS: bad }), bad).toThrow(/SCHEDULER_INTERVAL_MS must be an integer of at least 100/);
  }
});
