import { matchHolderName, normaliseName } from './match-holder-name';

describe('normaliseName', () => {
  it.each([
    ['JOSÉ', 'JOSE'],
    ["O'BRIEN", 'OBRIEN'],
    ['O\u2019Brien', 'OBRIEN'],
    ['Anna-Marie', 'ANNA MARIE'],
    ['  anna   marie ', 'ANNA MARIE'],
    ['anna - marie', 'ANNA MARIE'],
    ['ST. JOHN', 'ST JOHN'],
    ['J.', 'J'],
    ['NÍ BHRIAIN', 'NI BHRIAIN'],
    ['FRANÇOIS', 'FRANCOIS'],
    ['Siobhán\tO\u2011Neill', 'SIOBHAN O NEILL'],
    // NFKD also unfolds compatibility characters, such as the ligature "ﬁ".
    ['ﬁona', 'FIONA'],
  ])('%j -> %j', (name, normalised) => {
    expect(normaliseName(name)).toBe(normalised);
  });
});

describe('matchHolderName', () => {
  it.each([
    // The examples.
    [{ firstName: 'JOSÉ', surname: "O'BRIEN" }, { firstName: 'Jose', surname: 'Obrien' }, 'MATCH'],
    [{ firstName: 'ANNA-MARIE', surname: "D'ARCY" }, { firstName: 'Anna Marie', surname: 'DArcy' }, 'MATCH'],
    [{ firstName: 'JOHN', surname: 'SMITH' }, { firstName: 'J', surname: 'Smith' }, 'PARTIAL'],
    // Exact, and the rules on the surname too.
    [{ firstName: 'JANE', surname: 'DOE' }, { firstName: 'JANE', surname: 'DOE' }, 'MATCH'],
    [{ firstName: 'RENÉE', surname: 'ST. JOHN' }, { firstName: 'Renee', surname: 'St John' }, 'MATCH'],
    [{ firstName: 'MOHAMMED', surname: 'AL-FARSI' }, { firstName: 'mohammed', surname: 'al farsi' }, 'MATCH'],
    // First names sharing their first part.
    [{ firstName: 'ANNA-MARIE', surname: 'DOE' }, { firstName: 'Anna', surname: 'Doe' }, 'PARTIAL'],
    [{ firstName: 'MARY', surname: 'DOE' }, { firstName: 'Mary Anne', surname: 'Doe' }, 'PARTIAL'],
    // An initial either way round, with or without its full stop.
    [{ firstName: 'J', surname: 'SMITH' }, { firstName: 'John', surname: 'Smith' }, 'PARTIAL'],
    [{ firstName: 'JOHN PAUL', surname: 'SMITH' }, { firstName: 'J.', surname: 'Smith' }, 'PARTIAL'],
    // Anything else.
    [{ firstName: 'JANE', surname: 'DOE' }, { firstName: 'John', surname: 'Doe' }, 'MISMATCH'],
    [{ firstName: 'JANE', surname: 'DOE' }, { firstName: 'Jane', surname: 'Dough' }, 'MISMATCH'],
    [{ firstName: 'JOHN', surname: 'SMITH' }, { firstName: 'J', surname: 'Smyth' }, 'MISMATCH'],
    [{ firstName: 'JOHN', surname: 'SMITH' }, { firstName: 'K', surname: 'Smith' }, 'MISMATCH'],
    // Two letters are not an initial.
    [{ firstName: 'JOHN', surname: 'SMITH' }, { firstName: 'JO', surname: 'Smith' }, 'MISMATCH'],
    [{ firstName: 'ANNA-MARIE', surname: 'DOE' }, { firstName: 'Marie', surname: 'Doe' }, 'MISMATCH'],
    // Names that normalise to nothing are nobody's.
    [{ firstName: "'", surname: 'DOE' }, { firstName: '.', surname: 'Doe' }, 'MISMATCH'],
    [{ firstName: 'JANE', surname: '.' }, { firstName: 'Jane', surname: "'" }, 'MISMATCH'],
  ] as const)('%j against %j is %s', (card, claimed, expected) => {
    expect(matchHolderName(card, claimed)).toBe(expected);
  });

  it('gives the same answer whichever side is the card', () => {
    const pairs = [
      [
        { firstName: 'J', surname: 'SMITH' },
        { firstName: 'JOHN', surname: 'SMITH' },
      ],
      [
        { firstName: 'ANNA', surname: 'DOE' },
        { firstName: 'ANNA-MARIE', surname: 'DOE' },
      ],
      [
        { firstName: 'JOSÉ', surname: "O'BRIEN" },
        { firstName: 'Jose', surname: 'Obrien' },
      ],
      [
        { firstName: 'JANE', surname: 'DOE' },
        { firstName: 'JOHN', surname: 'DOE' },
      ],
    ];
    for (const [a, b] of pairs) expect(matchHolderName(a, b)).toBe(matchHolderName(b, a));
  });
});
