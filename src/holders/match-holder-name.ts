/** How a claimed holder's name compares with the name on a licence card (issue 24). */
export type NameMatch = 'MATCH' | 'PARTIAL' | 'MISMATCH';

export interface HolderName {
  firstName: string;
  surname: string;
}

// Marks left behind by NFKD (the accent of "É" becomes its own code point).
const COMBINING_MARKS = /\p{M}/gu;
// Typed, typographic and modifier apostrophes, and full stops ("ST. JOHN", "J."), are dropped: "O'BRIEN" is "OBRIEN".
const DROPPED = /['\u2018\u2019\u02bc.]/g;
// Hyphens (ASCII and Unicode dashes) and runs of white space all separate one part from the next.
const SEPARATORS = /[\s\p{Pd}]+/gu;

/**
 * A name as compared: NFKD with accents removed, upper case, apostrophes and full stops removed, its parts
 * joined by one space ("José-María  O'Neil." -> "JOSE MARIA ONEIL").
 */
export function normaliseName(name: string): string {
  return name.normalize('NFKD').replace(COMBINING_MARKS, '').toUpperCase().replace(DROPPED, '').replace(SEPARATORS, ' ').trim();
}

/**
 * MATCH when surname and first name are equal once normalised; PARTIAL when the surname is equal and the
 * first names share their first part ("ANNA" and "ANNA-MARIE") or one is a single initial of the other
 * ("J" and "JOHN"); MISMATCH otherwise. A name with nothing left after normalising never matches, so that
 * two blank names are not taken for the same person.
 */
export function matchHolderName(card: HolderName, claimed: HolderName): NameMatch {
  const cardSurname = normaliseName(card.surname);
  const cardFirst = normaliseName(card.firstName);
  const claimedFirst = normaliseName(claimed.firstName);
  if (cardSurname === '' || cardFirst === '' || claimedFirst === '' || cardSurname !== normaliseName(claimed.surname)) {
    return 'MISMATCH';
  }
  if (cardFirst === claimedFirst) return 'MATCH';
  if (firstPart(cardFirst) === firstPart(claimedFirst)) return 'PARTIAL';
  if (isInitialOf(cardFirst, claimedFirst) || isInitialOf(claimedFirst, cardFirst)) return 'PARTIAL';
  return 'MISMATCH';
}

function firstPart(normalised: string): string {
  return normalised.split(' ', 1)[0];
}

function isInitialOf(initial: string, name: string): boolean {
  return initial.length === 1 && name.startsWith(initial);
}
