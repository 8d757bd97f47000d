import { ApiProperty } from '@nestjs/swagger';
import { KEY_MODES } from './key-mode';

/** The `mode` of an object a key made or reads: its owner's side, the mode of the keys that see it. */
export function ApiModeProperty(): PropertyDecorator {
  return ApiProperty({
    enum: KEY_MODES,
    example: 'live',
    description: 'live, or test for an object of the test side, which only test keys see (docs/api.md, Test mode)',
  });
}
