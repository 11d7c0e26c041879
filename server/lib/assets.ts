import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A built file served as is: its bytes, a content version for immutable URLs, and its SRI hash. */
export interface Asset {
  body: Buffer;
  version: string;
  integrity: string;
}

/** The file at dir/file, or null when it is not built. */
export function loadAsset(dir: string, file: string): Asset | null {
  const path = join(dir, file);
  if (!existsSync(path)) return null;
  const body = readFileSync(path);
  return {
    body,
    version: createHash('sha256').update(body).digest('hex').slice(0, 12),
    integrity: 'sha384-' + createHash('sha384').update(body).digest('base64'),
  };
}
