import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, secretOf } from '../../server/config.js';

// TESSERA_DATA_KEY_FILE and TESSERA_DATA_KEYS_RETIRED_FILE: the data key from a file the operator
// made once (a Docker or Kubernetes secret), so every run of a container reads the same key.

const dir = mkdtempSync(join(tmpdir(), 'tessera-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secrets from files', () => {
  test('NAME_FILE is read and trimmed; NAME alone as before; neither is undefined', () => {
    const key = randomBytes(32).toString('base64');
    const file = join(dir, 'data.key');
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    expect(loadConfig({ TESSERA_DATA_KEY_FILE: file }).dataKey).toBe(key);
    expect(loadConfig({ TESSERA_DATA_KEY: key }).dataKey).toBe(key);
    expect(loadConfig({}).dataKey).toBeUndefined();
    const retired = join(dir, 'retired');
    writeFileSync(retired, 'a,b\n');
    expect(loadConfig({ TESSERA_DATA_KEYS_RETIRED_FILE: retired }).retiredDataKeys).toBe('a,b');
  });

  test('both set, a file that cannot be read, an empty file: a ConfigError naming the variable and the file', () => {
    const file = join(dir, 'k');
    writeFileSync(file, 'x');
    expect(() => secretOf({ TESSERA_DATA_KEY: 'x', TESSERA_DATA_KEY_FILE: file }, 'TESSERA_DATA_KEY')).toThrow(/TESSERA_DATA_KEY and TESSERA_DATA_KEY_FILE are both set/);
    const missing = join(dir, 'nope');
    expect(() => loadConfig({ TESSERA_DATA_KEY_FILE: missing })).toThrow(ConfigError);
    expect(() => loadConfig({ TESSERA_DATA_KEY_FILE: missing })).toThrow(`TESSERA_DATA_KEY_FILE: cannot read ${missing} (ENOENT)`);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(() => loadConfig({ TESSERA_DATA_KEY_FILE: empty })).toThrow(`TESSERA_DATA_KEY_FILE: ${empty} is empty`);
  });
});
