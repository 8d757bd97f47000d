import { operatorChangeRefusal, RosterOperator } from './operator-change';

const ana: RosterOperator = { id: 'ana', role: 'operator', active: true };
const bo: RosterOperator = { id: 'bo', role: 'operator', active: true };
const sam: RosterOperator = { id: 'sam', role: 'support', active: true };
const ivy: RosterOperator = { id: 'ivy', role: 'operator', active: false };

describe('operatorChangeRefusal', () => {
  it('refuses every change of one’s own account, even with other operators left', () => {
    for (const change of [{ kind: 'disable' }, { kind: 'enable' }, { kind: 'role', role: 'support' }, { kind: 'remove' }] as const)
      expect(operatorChangeRefusal('ana', ana, change, [ana, bo, sam])).toBe('SELF');
  });

  it('keeps the last active operator from being disabled, made support or removed, by anyone', () => {
    for (const actor of ['sam', null]) {
      expect(operatorChangeRefusal(actor, ana, { kind: 'disable' }, [ana, sam, ivy])).toBe('LAST_OPERATOR');
      expect(operatorChangeRefusal(actor, ana, { kind: 'role', role: 'support' }, [ana, sam, ivy])).toBe('LAST_OPERATOR');
      expect(operatorChangeRefusal(actor, ana, { kind: 'remove' }, [ana, sam, ivy])).toBe('LAST_OPERATOR');
    }
  });

  it('lets one of two active operators go, and the last one stay as they are', () => {
    expect(operatorChangeRefusal('bo', ana, { kind: 'disable' }, [ana, bo])).toBeNull();
    expect(operatorChangeRefusal(null, ana, { kind: 'remove' }, [ana, bo])).toBeNull();
    expect(operatorChangeRefusal(null, ana, { kind: 'role', role: 'operator' }, [ana, sam])).toBeNull();
    expect(operatorChangeRefusal(null, ana, { kind: 'enable' }, [ana, sam])).toBeNull();
  });

  it('counts neither disabled nor support operators, and lets them go', () => {
    expect(operatorChangeRefusal(null, ivy, { kind: 'remove' }, [ivy])).toBeNull();
    expect(operatorChangeRefusal('ana', sam, { kind: 'disable' }, [ana, sam])).toBeNull();
    expect(operatorChangeRefusal('ana', ivy, { kind: 'enable' }, [ana, ivy])).toBeNull();
    // A support operator made operator adds one; the only active operator made support with a disabled one left: refused.
    expect(operatorChangeRefusal('ana', sam, { kind: 'role', role: 'operator' }, [ana, sam])).toBeNull();
    expect(operatorChangeRefusal(null, ana, { kind: 'role', role: 'support' }, [ana, ivy])).toBe('LAST_OPERATOR');
  });
});
