/** What a charge needs: whose counter, which period, which number, the plan's limit, and the id it will carry. */
export interface ChargeRequest {
  userId: string;
  period: string;
  licenceNumber: string;
  monthlyQuota: number | null;
  chargeId: string;
}

/**
 * Splits charges that arrived together into rounds that can each run as one statement without
 * deadlocking: every charge takes its number's row, then its user's counter row, and holds both until
 * the commit. Within a round, each user appears at most once and users come in one fixed order (by id),
 * so two rounds, or a round and quota_charge_many (all of one user's number rows, then the counter),
 * always take locks in the same order. Returns the requests' indices, round by round.
 */
export function chargeRounds(requests: readonly ChargeRequest[]): number[][] {
  const rounds: number[][] = [];
  const roundsOfUser = new Map<string, number>();
  requests.forEach((request, index) => {
    const round = roundsOfUser.get(request.userId) ?? 0;
    roundsOfUser.set(request.userId, round + 1);
    (rounds[round] ??= []).push(index);
  });
  for (const round of rounds) round.sort((a, b) => compareIds(requests[a].userId, requests[b].userId));
  return rounds;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
