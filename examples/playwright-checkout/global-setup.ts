import { prepareSnapshot } from 'tessera/testing';

// Optional: without it the first worker builds the snapshot and the others start slower meanwhile.
export default async function globalSetup() {
  await prepareSnapshot();
}
