#!/usr/bin/env node
// The image's HEALTHCHECK, for both roles: healthy when the API (on OPERATOR_PORT when set, which takes
// /health/* off PORT, else on PORT) or the worker's operators' listener (WORKER_HTTP_PORT) answers
// /health/live on loopback. Plain JavaScript: no build needed.
const ports = [process.env.OPERATOR_PORT || process.env.PORT || '3000', process.env.WORKER_HTTP_PORT || '3001'];

async function live(port) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(2000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

Promise.all(ports.map(live)).then((answers) => process.exit(answers.includes(true) ? 0 : 1));
