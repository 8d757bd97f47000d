import { Body, CanActivate, Controller, ExecutionContext, HttpCode, Injectable, Module, Post, Res, UseGuards, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Matches } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BARE_VERIFY_BODY } from './bench-fixtures';

/**
 * The card's floor: what the design card's own stack costs a request with no I/O at all. NestJS on Fastify, one POST
 * route whose body is a class-validator DTO through the global ValidationPipe, behind a guard that compares an API key,
 * answering what a cached verification answers. In a process of its own, like the bare route; the cached repeat's
 * cost beyond it is ours.
 */
const KEYS = new Set((process.env.BENCH_FLOOR_KEYS ?? '').split(',').filter(Boolean));

class FloorVerifyRequest {
  @Matches(/^\d{16}$/)
  licenceNumber!: string;
}

@Injectable()
class FloorKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const key = context.switchToHttp().getRequest<FastifyRequest>().headers['x-api-key'];
    return typeof key === 'string' && KEYS.has(key);
  }
}

@Controller('v1/licences')
class FloorController {
  @Post('verify')
  @HttpCode(200)
  @UseGuards(FloorKeyGuard)
  verify(@Body() _request: FloorVerifyRequest, @Res({ passthrough: true }) reply: FastifyReply): typeof BARE_VERIFY_BODY {
    reply.header('idempotency-key', 'auto-0000000000000000000000000000000000000000').header('x-verification-source', 'cache');
    return BARE_VERIFY_BODY;
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule, new FastifyAdapter(), { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
  await app.listen(0, '127.0.0.1');
  console.log(`Nest floor listening on ${(await app.getUrl()).replace('[::1]', '127.0.0.1')}`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
