import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import type { Sampler, SamplingResult } from '@opentelemetry/sdk-trace';
import { beginsTrace } from './span-choices';

const NOT_RECORDED: SamplingResult = { decision: SamplingDecision.NOT_RECORD };

/**
 * The root sampler: only work that may begin a trace (beginsTrace) does, and of that only the share `ratio`, chosen
 * by trace id so that every process of a trace agrees. Every other span follows its parent's choice (ParentBased).
 */
export class TraceBeginnings implements Sampler {
  private readonly share: Sampler;

  constructor(ratio: number) {
    this.share = new TraceIdRatioBasedSampler(ratio);
  }

  shouldSample(context: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    return beginsTrace(kind) ? this.share.shouldSample(context, traceId, name, kind, attributes, links) : NOT_RECORDED;
  }

  toString(): string {
    return `TraceBeginnings{${this.share.toString()}}`;
  }
}
