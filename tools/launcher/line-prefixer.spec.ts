import { LinePrefixer, prefixesFor } from './line-prefixer';

describe('LinePrefixer', () => {
  it('prefixes every complete line of a chunk', () => {
    expect(new LinePrefixer('api | ').push('one\ntwo\n')).toEqual(['api | one', 'api | two']);
  });

  it('keeps a partial line until its end arrives', () => {
    const prefixer = new LinePrefixer('api | ');
    expect(prefixer.push('hal')).toEqual([]);
    expect(prefixer.push('f a line\nnext')).toEqual(['api | half a line']);
    expect(prefixer.flush()).toEqual(['api | next']);
    expect(prefixer.flush()).toEqual([]);
  });

  it('drops carriage returns at line ends', () => {
    expect(new LinePrefixer('> ').push('windows\r\n')).toEqual(['> windows']);
  });

  it('keeps empty lines', () => {
    expect(new LinePrefixer('> ').push('\n\n')).toEqual(['> ', '> ']);
  });
});

describe('prefixesFor', () => {
  it('pads names to the longest', () => {
    expect(prefixesFor(['api', 'worker-1'])).toEqual(
      new Map([
        ['api', 'api      | '],
        ['worker-1', 'worker-1 | '],
      ]),
    );
  });
});
