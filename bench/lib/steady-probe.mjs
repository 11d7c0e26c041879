// Child process: a steady, open-loop stream of GET requests (a new one every 1000/rate ms, whether or
// not the previous ones have answered), so a stalled server shows up as the full stall in the
// latencies instead of as fewer requests. The parent (scenarios/clock-advance.mjs) sends
// {url, headers, rate}; then {mark: true} to start the measured window and {stop: true} to end
// it; the child answers {ok, times, errors, non2xx} with the latencies (ms) of the requests sent
// in the window, once they have all answered.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let opts;
let timer;
let measuring = false;
const inflight = new Set();
const times = [];
let errors = 0;
let non2xx = 0;

function fire() {
  const t0 = performance.now();
  const record = measuring;
  const p = new Promise((resolve) => {
    const req = request(opts.url, { agent, headers: opts.headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (record) {
          times.push(performance.now() - t0);
          if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
        }
        resolve();
      });
    });
    req.on('error', () => {
      if (record) errors++;
      resolve();
    });
    req.end();
  });
  inflight.add(p);
  p.finally(() => inflight.delete(p));
}

process.on('message', async (m) => {
  if (m.url) {
    opts = m;
    timer = setInterval(fire, 1000 / m.rate);
    process.send({ started: true });
  } else if (m.mark) {
    measuring = true;
  } else if (m.stop) {
    measuring = false;
    clearInterval(timer);
    await Promise.all([...inflight]);
    process.send({ ok: true, times, errors, non2xx });
    agent.destroy();
    process.disconnect();
  }
});
