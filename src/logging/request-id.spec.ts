import { chooseRequestId } from './request-id';

const generate = () => 'generated';

describe('chooseRequestId', () => {
  it.each(['abc-123', 'a', 'x'.repeat(128), 'trace=1;span=2'])('keeps the caller id %s', (header) => {
    expect(chooseRequestId(header, generate)).toBe(header);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['too long', 'x'.repeat(129)],
    ['with a space', 'a b'],
    ['with a newline', 'a\nb'],
    ['not ASCII', 'café'],
    ['repeated header', ['a', 'b']],
  ])('generates one when the header is %s', (_, header) => {
    expect(chooseRequestId(header, generate)).toBe('generated');
  });
});
