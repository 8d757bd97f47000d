import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';

/** Prometheus scrape endpoint for operators; not part of the partner API, so no key and not in the docs. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const body = await this.metrics.render();
    await reply.header('content-type', this.metrics.contentType).send(body);
  }
}
