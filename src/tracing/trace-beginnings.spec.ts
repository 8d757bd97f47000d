import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { randomBytes } from 'node:crypto';
import { TraceBeginnings } from './trace-beginnings';

function sampledShare(sampler: TraceBeginnings, kind: SpanKind, traces: number): number {
  let sampled = 0;
  for (let i = 0; i < traces; i++) {
    const { decision } = sampler.shouldSample(ROOT_CONTEXT, randomBytes(16).toString('hex'), 'work', kind, {}, []);
    if (decision === SamplingDecision.RECORD_AND_SAMPLED) sampled++;
  }
  return sampled / traces;
}

describe('TraceBeginnings', () => {
  it('begins a trace for every request and job at a ratio of 1, and for none at 0', () => {
    expect(sampledShare(new TraceBeginnings(1), SpanKind.SERVER, 1000)).toBe(1);
    expect(sampledShare(new TraceBeginnings(1), SpanKind.CONSUMER, 1000)).toBe(1);
    expect(sampledShare(new TraceBeginnings(0), SpanKind.SERVER, 1000)).toBe(0);
  });

  it('begins about the ratio of traces, the same choice for the same trace id', () => {
    const share = sampledShare(new TraceBeginnings(0.1), SpanKind.SERVER, 20_000);
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.12);
    const sampler = new TraceBeginnings(0.5);
    const traceId = randomBytes(16).toString('hex');
    const first = sampler.shouldSample(ROOT_CONTEXT, traceId, 'work', SpanKind.SERVER, {}, []).decision;
    expect(sampler.shouldSample(ROOT_CONTEXT, traceId, 'other', SpanKind.PRODUCER, {}, []).decision).toBe(first);
  });

  it('never begins a trace for housekeeping or a call outside traced work, whatever the ratio', () => {
    expect(sampledShare(new TraceBeginnings(1), SpanKind.INTERNAL, 100)).toBe(0);
    expect(sampledShare(new TraceBeginnings(1), SpanKind.CLIENT, 100)).toBe(0);
  });
});
