import { addMonths } from '../domain/billing/calendar.js';
import { badRequest, E, GatewayError, invalid, MUST } from '../errors.js';

const MAX_ADVANCE_MS = 10 * 366 * 86_400_000;
const UNITS = { seconds: 1000, minutes: 60_000, hours: 3600_000, days: 86_400_000 } as const;

/**
 * Where the body asks the clock to go from `from`: `to` (an ISO 8601 time), or a sum of `months`
 * (calendar months, the day clamped: Jan 31 + 1 month = Feb 28), `days`, `hours`, `minutes`,
 * `seconds` (whole numbers ≥ 0). At most ten years per call. Backwards is CLOCK02.
 */
export function targetOf(from: Date, body: Record<string, unknown>): Date {
  const whole = (k: string) => {
    const v = body[k];
    if (v === undefined || v === null || v === '') return 0;
    const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
    if (!/^\d{1,9}$/.test(s)) throw invalid(k, MUST.WHOLE);
    return Number(s);
  };
  let target: Date;
  const given = ['months', ...Object.keys(UNITS)].filter((k) => body[k] !== undefined && body[k] !== null && body[k] !== '');
  if (body.to !== undefined && body.to !== null && body.to !== '') {
    if (given.length) throw badRequest(`say how far once: to, or ${given.join(', ')}, not both`);
    const s = typeof body.to === 'string' ? body.to.trim() : '';
    target = new Date(s);
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) || Number.isNaN(target.getTime())) {
      throw invalid('to', 'must be an ISO 8601 time, e.g. 2026-03-01T00:00:00Z');
    }
    if (target < from) throw new GatewayError(E.CLOCK_BACKWARDS, `the test clock is at ${from.toISOString()} and only moves forward`);
  } else {
    if (given.length === 0) throw badRequest('say how far: to, or any of months, days, hours, minutes, seconds');
    const ms = Object.entries(UNITS).reduce((sum, [k, unit]) => sum + whole(k) * unit, 0);
    target = new Date(addMonths(from, whole('months')).getTime() + ms);
  }
  if (target.getTime() - from.getTime() > MAX_ADVANCE_MS) throw badRequest('the test clock moves at most ten years per call');
  return target;
}
