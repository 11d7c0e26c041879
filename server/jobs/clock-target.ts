import { addMonths } from '../domain/billing/calendar.js';
import { badRequest, E, GatewayError } from '../errors.js';
import { take } from '../schemas/fields.js';
import type { AdvanceInput } from '../schemas/test-helpers.js';

const MAX_ADVANCE_MS = 10 * 366 * 86_400_000;
const UNITS = { seconds: 1000, minutes: 60_000, hours: 3600_000, days: 86_400_000 } as const;

/**
 * Where the advance asks the clock to go from `from`: `to` (an ISO 8601 time), or a sum of `months`
 * (calendar months, the day clamped: Jan 31 + 1 month = Feb 28), `days`, `hours`, `minutes`,
 * `seconds` (whole numbers ≥ 0), as AdvanceFields read them; their refusals are thrown here, in
 * this order. At most ten years per call. Backwards is CLOCK02.
 */
export function targetOf(from: Date, input: AdvanceInput): Date {
  let target: Date;
  const units = ['months', ...Object.keys(UNITS)] as ('months' | keyof typeof UNITS)[];
  const given = units.filter((k) => input[k] !== null);
  if (input.to !== null) {
    if (given.length) throw badRequest(`say how far once: to, or ${given.join(', ')}, not both`);
    target = take(input.to);
    if (target < from) throw new GatewayError(E.CLOCK_BACKWARDS, `the test clock is at ${from.toISOString()} and only moves forward`);
  } else {
    if (given.length === 0) throw badRequest('say how far: to, or any of months, days, hours, minutes, seconds');
    const ms = (Object.entries(UNITS) as [keyof typeof UNITS, number][]).reduce((sum, [k, unit]) => sum + (take(input[k]) ?? 0) * unit, 0);
    target = new Date(addMonths(from, take(input.months) ?? 0).getTime() + ms);
  }
  if (target.getTime() - from.getTime() > MAX_ADVANCE_MS) throw badRequest('the test clock moves at most ten years per call');
  return target;
}
