import http from 'node:http';

/**
 * Open-loop load: request i leaves at start + i / rate whatever happened to the ones before
 * (autocannon's overallRate does not do this: each connection sends back to back until it has
 * made its share of the second, then waits for the next second, so every second starts with a
 * burst at full speed). A request's time runs from when it was due, not from when a free socket
 * took it, so waiting for one counts (no coordinated omission). `amount` requests of `sequence`
 * (each {method, path, headers, body}) over at most `connections` keep-alive sockets, spread over `urls`.
 * The first `warmup` requests go out at the same rate but are not counted (sockets opened, both
 * sides' code compiled); `onMeasuring()` is called when the first counted one is due.
 * Returns { res (autocannon's shape: duration, requests, 2xx, non2xx, errors, ...), times }.
 */
export function pacedLoad(opts, onMeasuring) {
  const { urls, connections, overallRate: rate, amount: counted, sequence, bodyIncludes, warmup = 0 } = opts;
  const amount = counted + warmup;
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: Math.max(1, Math.ceil(connections / urls.length)) }));
  const times = [];
  const counts = { ok2xx: 0, non2xx: 0, errors: 0, timeouts: 0, mismatches: 0, codes: {} };
  const start = performance.now();
  const measuredFrom = start + (warmup * 1000) / rate;
  let sent = 0;
  let done = 0;
  return new Promise((resolve) => {
    const finish = () => {
      for (const a of agents) a.destroy();
      const seconds = (performance.now() - measuredFrom) / 1000;
      resolve({
        times,
        res: {
          duration: seconds, requests: { total: sent - warmup }, '2xx': counts.ok2xx, non2xx: counts.non2xx, errors: counts.errors,
          timeouts: counts.timeouts, mismatches: counts.mismatches,
          statusCodeStats: Object.fromEntries(Object.entries(counts.codes).map(([k, n]) => [k, { count: n }])),
        },
      });
    };
    const fire = (i) => {
      const due = start + (i * 1000) / rate;
      if (i === warmup) onMeasuring?.();
      const count = i >= warmup;
      const r = sequence[i % sequence.length];
      const url = new URL(r.path, urls[i % urls.length]);
      const body = r.body ?? '';
      const req = http.request(url, {
        agent: agents[i % urls.length], method: r.method ?? 'GET', timeout: 30_000,
        headers: { ...r.headers, 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          if (count) record(res.statusCode, performance.now() - due, text);
          if (++done === amount) finish();
        });
      });
      req.on('timeout', () => {
        if (count) counts.timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        if (count) counts.errors++;
        if (++done === amount) finish();
      });
      req.end(body);
    };
    const record = (status, ms, text) => {
      times.push(ms);
      counts.codes[status] = (counts.codes[status] ?? 0) + 1;
      if (status >= 200 && status < 300) {
        counts.ok2xx++;
        if (bodyIncludes && !text.includes(bodyIncludes)) counts.mismatches++;
      } else counts.non2xx++;
    };
    const tick = () => {
      const due = Math.min(amount, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) fire(sent++);
      if (sent < amount) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
    };
    tick();
  });
}
