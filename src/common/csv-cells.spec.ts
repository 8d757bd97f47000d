import { neutraliseFormula } from './csv-cells';

describe('neutraliseFormula', () => {
  it.each(['=1+1', '+44 20', '-3', '@SUM(A1)', '\t=1', '\r=1'])('prefixes %j with an apostrophe', (cell) => {
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
  });

  it.each(['Guard 1', '1011001544208079', '', "O'BRIEN", 'a=b'])('leaves %j as it is', (cell) => {
    expect(neutraliseFormula(cell)).toBe(cell);
  });
});
