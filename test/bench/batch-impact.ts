import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { LoadResult, runLoad } from './load';

export interface BatchImpactOptions {
  baseUrl: string;
  /** the key that sends the 1,000-row batch */
  batchKey: string;
  /** the key of the partner verifying single numbers meanwhile */
  verifyKey: string;
  /** the batch's numbers: new ones, so that every row goes to the register */
  batchNumbers: string[];
  /** numbers for single verifications, none in the batch; half are used before it, half during it */
  verifyNumbers: string[];
  /** single verifications in flight at once */
  concurrency?: number;
}

export interface BatchImpact {
  /** single verifications of new numbers with no batch running (the baseline) */
  withoutBatch: LoadResult;
  /** the same while the batch runs */
  duringBatch: LoadResult;
  /** how long the batch took from POST to completedAt */
  batchSeconds: number;
  /** true when the batch was still running after the last single verification answered */
  overlapped: boolean;
}

/** One POST /v1/licences/verify; its HTTP status. */
export async function verify(baseUrl: string, apiKey: string, licenceNumber: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/licences/verify`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ licenceNumber }),
  });
  await response.arrayBuffer();
  return String(response.status);
}

async function completedAt(baseUrl: string, apiKey: string, batchId: string): Promise<number> {
  for (;;) {
    const response = await fetch(`${baseUrl}/v1/batches/${batchId}?limit=1`, { headers: { 'x-api-key': apiKey } });
    if (response.status !== 200) throw new Error(`GET /v1/batches/${batchId} answered ${response.status}`);
    const body = (await response.json()) as { status: string; completedAt: string | null };
    if (body.status === 'COMPLETED' && body.completedAt) return Date.parse(body.completedAt);
    await sleep(200);
  }
}

/**
 * "While a 1,000-row batch runs, single verifications still answer within normal time": single
 * verifications of new numbers, first alone, then while a batch of new numbers runs through the
 * same queue and register rate limit. Both sides go to the register, so the ratio shows what the
 * batch costs a live verify.
 */
export async function measureBatchImpact(options: BatchImpactOptions): Promise<BatchImpact> {
  const { baseUrl, batchKey, verifyKey, batchNumbers, verifyNumbers } = options;
  const concurrency = options.concurrency ?? 4;
  const half = Math.floor(verifyNumbers.length / 2);
  const withoutBatch = await runLoad(half, concurrency, (index) => verify(baseUrl, verifyKey, verifyNumbers[index]));

  const batchStarted = performance.timeOrigin + performance.now();
  const batchAnswer = fetch(`${baseUrl}/v1/batches`, {
    method: 'POST',
    headers: { 'x-api-key': batchKey, 'content-type': 'application/json' },
    body: JSON.stringify({ licenceNumbers: batchNumbers }),
  });
  // Give the batch a head start so that its items wait in the queue before the first single verify.
  await sleep(500);
  const duringBatch = await runLoad(verifyNumbers.length - half, concurrency, (index) => verify(baseUrl, verifyKey, verifyNumbers[half + index]));
  const lastVerifyAnswered = performance.timeOrigin + performance.now();

  const response = await batchAnswer;
  if (response.status !== 200 && response.status !== 202) throw new Error(`POST /v1/batches answered ${response.status}`);
  const { id } = (await response.json()) as { id: string };
  const finished = await completedAt(baseUrl, batchKey, id);
  return {
    withoutBatch,
    duringBatch,
    batchSeconds: (finished - batchStarted) / 1000,
    overlapped: finished > lastVerifyAnswered,
  };
}
