/** What an operator may do: `operator` reads and changes, `support` reads only. */
export type OperatorRole = 'operator' | 'support';
export const OPERATOR_ROLES: readonly OperatorRole[] = ['operator', 'support'];
