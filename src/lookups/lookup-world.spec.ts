import { lookupQueueOf, newLookupJobId, REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from './lookup-jobs';
import { forWorld, LIVE_WORLD, queueOfWorld, worldNames, worldOfJob, worldOfUser } from './lookup-world';

const REGISTER = 'register.example:443';
const number = { licenceNumber: '1011001544208079' };
const search = { kind: 'name' as const, searchKey: 'digest', sealedSearch: 'sealed' };

describe('worldOfUser and worldOfJob', () => {
  it('puts a test side in its own test world and every live user in the one live world', () => {
    expect(worldOfUser('u1', 'test')).toEqual({ side: 'test', testUserId: 'u1' });
    expect(worldOfUser('u1', 'live')).toBe(LIVE_WORLD);
  });

  it('reads the world back from the job its world queued', () => {
    expect(worldOfJob(worldNames(worldOfUser('u1', 'test'), number, REGISTER).job)).toEqual({ side: 'test', testUserId: 'u1' });
    expect(worldOfJob(worldNames(LIVE_WORLD, search, REGISTER).job)).toBe(LIVE_WORLD);
  });
});

describe('forWorld', () => {
  it("answers the live choice for the live world and the test user's own for a test world", () => {
    const choices = { live: 'breaker', test: (testUserId: string) => `test register of ${testUserId}` };
    expect(forWorld(LIVE_WORLD, choices)).toBe('breaker');
    expect(forWorld({ side: 'test', testUserId: 'u1' }, choices)).toBe('test register of u1');
  });
});

describe('worldNames', () => {
  it('names live results by register and subject, shared by every live user, and leaves the job as asked', () => {
    expect(worldNames(LIVE_WORLD, number, REGISTER)).toEqual({
      cacheKey: ['result', REGISTER, number.licenceNumber],
      flightId: number.licenceNumber,
      job: number,
    });
    expect(worldNames(LIVE_WORLD, search, REGISTER)).toEqual({ cacheKey: ['name-result', REGISTER, 'digest'], flightId: 'name:digest', job: search });
  });

  it("names a test user's results and flights apart from the register's and every other user's, and marks its job", () => {
    expect(worldNames(worldOfUser('u1', 'test'), number, REGISTER)).toEqual({
      cacheKey: ['test-result', 'u1', number.licenceNumber],
      flightId: `test:u1:${number.licenceNumber}`,
      job: { ...number, testUserId: 'u1' },
    });
    expect(worldNames(worldOfUser('u2', 'test'), search, REGISTER)).toEqual({
      cacheKey: ['test-result', 'u2', 'name:digest'],
      flightId: 'test:u2:name:digest',
      job: { ...search, testUserId: 'u2' },
    });
  });

  it('names a job again as it was named: the worker reads the same key the API wrote', () => {
    const world = worldOfUser('u1', 'test');
    const named = worldNames(world, number, REGISTER);
    expect(worldNames(worldOfJob(named.job), named.job, REGISTER)).toEqual(named);
  });
});

describe('queueOfWorld', () => {
  it("queues the live world's lookups on the register's queue, at its pace, and parks its background ones for their turn", () => {
    expect(queueOfWorld(LIVE_WORLD)).toEqual({ name: REGISTER_LOOKUP_QUEUE, paced: true, parks: true });
  });

  it("queues every test user's lookups on the test queue, unpaced, and never parks them (they spend no register budget)", () => {
    expect(queueOfWorld(worldOfUser('u1', 'test'))).toEqual({ name: TEST_LOOKUP_QUEUE, paced: false, parks: false });
    expect(queueOfWorld(worldOfUser('u2', 'test'))).toBe(queueOfWorld(worldOfUser('u1', 'test')));
  });

  it("gives a world's job an id that names its world's queue, so the producer finds it again by id", () => {
    for (const world of [LIVE_WORLD, worldOfUser('u1', 'test')]) {
      for (const subject of [number, search]) {
        const { job } = worldNames(world, subject, REGISTER);
        expect(lookupQueueOf(newLookupJobId(job))).toBe(queueOfWorld(world).name);
        expect(queueOfWorld(worldOfJob(job))).toBe(queueOfWorld(world));
      }
    }
  });
});
