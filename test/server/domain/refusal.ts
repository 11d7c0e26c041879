import { GatewayError } from '../../../server/errors.js';

/** The code and message a pure reader refuses `run` with (throws when it refuses nothing). */
export function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return { code: err.code, message: err.message };
  }
  throw new Error('expected a refusal');
}
