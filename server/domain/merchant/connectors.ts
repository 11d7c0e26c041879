import type { Queryable } from '../../db/index.js';
import type { Connector, ProcessorRegistry } from '../../processor/processor.js';
import type { Vault } from '../../vault.js';
import type { Scope } from './keys.js';
import { getConnection } from './processor-connections.js';

/** What finds a merchant environment's processor: the registry (start.ts) and the vault its credentials are sealed in. */
export interface ProcessorDeps {
  vault: Vault;
  processors: ProcessorRegistry;
}

/**
 * The processor of a merchant environment: the simulator in test mode; in live mode the
 * connection the operator set (`tessera processor set`), read at each use so a change applies at
 * once on every node; null when live mode has none (its charges are refused: PROC01).
 */
export async function connectorFor(q: Queryable, deps: ProcessorDeps, scope: Scope): Promise<Connector | null> {
  if (scope.env === 'test') return deps.processors.simulator;
  const connection = await getConnection(q, deps.vault, scope);
  return connection ? deps.processors.connect(connection) : null;
}
