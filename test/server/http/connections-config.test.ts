import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';

// `tessera serve` reads the connection settings with the rest (config.ts): a bad one stops the start
// as a ConfigError naming its variable, before anything opens (http/connections.ts has the rules).
describe('connection settings in the configuration', () => {
  test('defaults, values, and a ConfigError naming a bad one', () => {
    expect(loadConfig({}).connections).toEqual({ keepAliveMs: 5000, maxConnections: 10_000, maxPerAddress: 512 });
    expect(loadConfig({ TESSERA_KEEP_ALIVE_MS: '65000', TESSERA_MAX_CONNECTIONS_PER_ADDRESS: '0' }).connections)
      .toEqual({ keepAliveMs: 65_000, maxConnections: 10_000, maxPerAddress: 0 });
    for (const [name, value] of [['TESSERA_KEEP_ALIVE_MS', '99'], ['TESSERA_MAX_CONNECTIONS', 'lots'], ['TESSERA_MAX_CONNECTIONS_PER_ADDRESS', '-3']]) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });
});
