/**
 * The longest ISO-8601 instant a request may carry: a date, a time with nine fractional digits and an offset take
 * 35 characters, so 40 refuses nothing real and bounds what a client can make the service parse.
 */
export const ISO_INSTANT_MAX_LENGTH = 40;
