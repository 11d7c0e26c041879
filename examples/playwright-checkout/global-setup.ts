import { prepareSnapshot } from 'tessera-gateway/testing';

// Optional: without it the first worker builds the snapshot and the others start slower meanwhile.
export default async function globalSetup() {
  await prepareSnapshot();
}
