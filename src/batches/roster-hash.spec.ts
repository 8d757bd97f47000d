import { createHash } from 'node:crypto';
import type { RosterEntry } from '../common/roster';
import { rosterHash } from './roster-hash';

const A = '1011001544208079';
const B = '1888000000000000';
const row = (licenceNumber: string, reference: string | null, holder: RosterEntry['holder'] = null): RosterEntry => ({ licenceNumber, reference, holder });
const digest = (dateOfBirth: string) => `digest-of-${dateOfBirth.length}-${dateOfBirth.charCodeAt(9)}`;

describe('rosterHash', () => {
  it('is the same for the same rows and differs when a reference or the order differs', () => {
    const rows = [row(A, 'x'), row(B, null)];
    expect(rosterHash(rows, digest)).toBe(
      rosterHash(
        rows.map((one) => ({ ...one })),
        digest,
      ),
    );
    expect(rosterHash(rows, digest)).not.toBe(rosterHash([rows[0], row(B, 'y')], digest));
    expect(rosterHash(rows, digest)).not.toBe(rosterHash([rows[1], rows[0]], digest));
    expect(rosterHash(rows, digest)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes rows without a holder as before holders existed, so that stored keys still replay', () => {
    const rows = [row(A, 'x'), row(B, null)];
    expect(rosterHash(rows, digest)).toBe(
      createHash('sha256')
        .update(
          JSON.stringify([
            [A, 'x'],
            [B, null],
          ]),
        )
        .digest('hex'),
    );
  });

  it('differs with the holder, and takes a date of birth only through the digest', () => {
    const plain = [row(A, null)];
    const named = [row(A, null, { firstName: 'Jane', surname: 'Doe' })];
    const born = (dateOfBirth: string) => [row(A, null, { firstName: 'Jane', surname: 'Doe', dateOfBirth })];
    expect(rosterHash(named, digest)).not.toBe(rosterHash(plain, digest));
    expect(rosterHash(born('1988-07-15'), digest)).not.toBe(rosterHash(named, digest));
    const seen: string[] = [];
    rosterHash(born('1988-07-15'), (date) => (seen.push(date), 'opaque'));
    expect(seen).toEqual(['1988-07-15']);
    expect(rosterHash(born('1988-07-15'), () => 'opaque')).toBe(rosterHash(born('1999-01-01'), () => 'opaque'));
  });
});
