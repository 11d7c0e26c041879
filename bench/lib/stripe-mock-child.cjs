// Child process: stripe-stateful-mock (an in-memory Express mock of Stripe's API) on 127.0.0.1:<free
// port>, in its own process so its CPU time is its own. Messages from the parent (scenarios/peer.mjs):
// {mark: true} starts a CPU reading, {read: true} answers {cpuUs} (user + system since the mark).
const { createExpressApp } = require('stripe-stateful-mock');
const log = require('loglevel');

log.setLevel('silent'); // a log line per request would be the mock's main cost
const server = createExpressApp().listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
let cpu0 = process.cpuUsage();
process.on('message', (m) => {
  if (m.mark) cpu0 = process.cpuUsage();
  else if (m.read) {
    const d = process.cpuUsage(cpu0);
    process.send({ cpuUs: d.user + d.system });
  }
});
process.on('disconnect', () => process.exit(0));
