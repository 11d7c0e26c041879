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

  test('the other secrets too: DATABASE_URL, REDIS_URL, SMTP_URL, SMS_WEBHOOK_SECRET from NAME_FILE (docker inspect shows -e values)', () => {
    const write = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, `${text}\n`, { mode: 0o600 });
      return file;
    };
    const cfg = loadConfig({
      DATABASE_URL_FILE: write('db', 'postgres://app:s3cret@db.internal/tessera'),
      REDIS_URL_FILE: write('redis', 'redis://:pw@cache.internal:6379'),
      SMTP_URL_FILE: write('smtp', 'smtps://mailer:pw@smtp.example.com'),
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      SMS_WEBHOOK_SECRET_FILE: write('sms', 'whsec'),
    });
    expect(cfg.databaseUrl).toBe('postgres://app:s3cret@db.internal/tessera');
    expect(cfg.redisUrl).toBe('redis://:pw@cache.internal:6379');
    expect(cfg.notify.smtpUrl).toBe('smtps://mailer:pw@smtp.example.com');
    expect(cfg.notify.smsWebhookSecret).toBe('whsec');
    // Read as if given directly: a file holding a bad URL is refused the same way.
    expect(() => loadConfig({ DATABASE_URL_FILE: write('bad', 'mysql://x') })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'redis://a', REDIS_URL_FILE: write('r2', 'redis://b') })).toThrow(/REDIS_URL and REDIS_URL_FILE are both set/);
  });
});
