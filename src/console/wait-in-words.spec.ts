import { waitInWords } from './wait-in-words';

describe('waitInWords', () => {
  it('says seconds up to two minutes, one in the singular', () => {
    expect([1, 2, 59, 119].map(waitInWords)).toEqual(['1 second', '2 seconds', '59 seconds', '119 seconds']);
  });

  it('says whole minutes beyond, rounded up so that it is never too early', () => {
    expect([120, 121, 3600].map(waitInWords)).toEqual(['2 minutes', '3 minutes', '60 minutes']);
  });
});
