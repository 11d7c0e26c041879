export * from './connector.js';
export { ProcessorRegistry, builtInRegistry } from './registry.js';
export type { Connection, ConnectorFactory, ConnectorRuntime } from './registry.js';
export { simulator, DECLINE_AMOUNTS, ACH_RETURN_AMOUNT } from './connectors/simulator/index.js';
