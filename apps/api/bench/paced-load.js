// Latency at a fixed request rate, open loop: request i is due at start + i / rate and its latency counts
// from that due time (so a stalled server cannot hide the requests it delayed: no coordinated omission).
// autocannon's overallRate cannot measure this: each connection sends its share of a second back to back
// and then waits for the next second, so every second starts with a burst of `rate` requests and the
// figure is the latency of draining a burst at full load, not of a steady rate.
'use strict';
const http = require('node:http');

/** Mean requests/s, p50 and p99 (ms) and failures of `rate` req/s for `durationS` seconds. */
async function pacedLoad({ port, rate, durationS, request, headers, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationS);
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  const sent = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(
      send(agent, port, request(), headers).then(
        (status) => {
          latencies.push(performance.now() - due);
          if (status < 200 || status >= 300) errors++;
        },
        () => errors++,
      ),
    );
  }
  await Promise.all(sent);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

function send(agent, port, { method, path, headers = {}, body }, commonHeaders) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { ...commonHeaders, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

module.exports = { pacedLoad };
