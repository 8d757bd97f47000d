import { cliActor, operatorOrigin } from './operator-actor';

describe('operatorOrigin', () => {
  it("gives a console operator's change the operator, their address and browser", () => {
    const actor = { type: 'operator', id: '5b0d0f4e-1c8e-4d59-a7b0-0b7f4c1e9a11', source: '192.0.2.7', userAgent: 'Firefox' } as const;
    expect(operatorOrigin(actor)).toEqual({
      actor: { type: 'operator', id: '5b0d0f4e-1c8e-4d59-a7b0-0b7f4c1e9a11' },
      clientAddress: '192.0.2.7',
      userAgent: 'Firefox',
    });
  });

  it("gives the command's change the OS user, and no address: the host is no client of the API", () => {
    expect(operatorOrigin(cliActor('maria', 'ops-1'))).toEqual({ actor: { type: 'cli', id: 'maria' }, clientAddress: null, userAgent: null });
    expect(cliActor('maria', 'ops-1')).toEqual({ type: 'cli', id: 'maria', source: 'ops-1', userAgent: null });
  });
});
