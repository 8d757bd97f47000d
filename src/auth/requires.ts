import { applyDecorators, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiErrorResponses } from '../http/api-error-responses';
import { Permission } from './key-role';

const REQUIRED_PERMISSION = 'requiredPermission';

/**
 * What a route (or every route of a controller) needs of the calling key's role. ApiKeyGuard and ConsoleSessionGuard
 * refuse 403 FORBIDDEN before the route runs, and refuse to serve a route that declares nothing. Every role may read,
 * so only a higher need puts FORBIDDEN in the route's document.
 */
export function Requires(permission: Permission): MethodDecorator & ClassDecorator {
  const metadata = SetMetadata(REQUIRED_PERMISSION, permission);
  return permission === 'read' ? metadata : applyDecorators(metadata, ApiErrorResponses('FORBIDDEN'));
}

/** The need the route of `context` declares (its own, else its controller's); a route that declares none is a bug. */
export function requiredPermission(reflector: Reflector, context: ExecutionContext): Permission {
  const needed = reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, [context.getHandler(), context.getClass()]);
  if (needed === undefined) throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no @Requires`);
  return needed;
}
