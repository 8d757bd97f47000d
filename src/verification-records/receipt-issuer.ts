import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';

/** The http origin of a bound listener: a wildcard address (0.0.0.0, ::) as localhost, an IPv6 one in brackets. */
export function listenerOrigin(address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') return 'http://localhost';
  const host = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * Who signs receipts (their iss): PUBLIC_BASE_URL, which production requires. Elsewhere, when it is empty, the
 * address the API's partner listener is bound to (HOST and PORT), fixed for the process: never a request's Host,
 * which a client chooses.
 */
@Injectable()
export class ReceiptIssuer {
  private readonly configured: string;

  constructor(
    config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.configured = config.get('PUBLIC_BASE_URL');
  }

  name(): string {
    return this.configured || listenerOrigin((this.adapterHost.httpAdapter.getHttpServer() as { address(): AddressInfo | string | null }).address());
  }
}
