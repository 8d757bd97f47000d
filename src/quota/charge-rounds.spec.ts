import { ChargeRequest, chargeRounds } from './charge-rounds';

const request = (userId: string, licenceNumber: string): ChargeRequest => ({ userId, period: '2026-11', licenceNumber, monthlyQuota: 10, chargeId: `charge-${licenceNumber}` });

describe('chargeRounds', () => {
  it('puts charges of different users in one round, ordered by user id', () => {
    const requests = [request('c', '1'), request('a', '2'), request('b', '3')];
    expect(chargeRounds(requests)).toEqual([[1, 2, 0]]);
  });

  it('puts a user\'s second and third charge in later rounds, in the order they came', () => {
    const requests = [request('b', '1'), request('a', '2'), request('b', '3'), request('b', '4'), request('a', '5')];
    expect(chargeRounds(requests)).toEqual([
      [1, 0],
      [4, 2],
      [3],
    ]);
  });

  it('never puts one user twice in a round, and places every request exactly once', () => {
    const users = ['u3', 'u1', 'u2'];
    const requests = Array.from({ length: 40 }, (_, index) => request(users[(index * 7) % 3], String(index)));
    const rounds = chargeRounds(requests);
    expect(rounds.flat().sort((a, b) => a - b)).toEqual(requests.map((_, index) => index));
    for (const round of rounds) {
      const ids = round.map((index) => requests[index].userId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort());
    }
  });

  it('makes no round of nothing', () => {
    expect(chargeRounds([])).toEqual([]);
  });
});
