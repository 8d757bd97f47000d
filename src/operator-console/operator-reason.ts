/** The longest reason the operators' log keeps (operator_actions.reason), from the console and the admin command alike. */
export const REASON_MAX_LENGTH = 500;
