/** Licence numbers in the shipped data set (data/licences.json) with a known behaviour. */
export const SANDBOX_NUMBERS = {
  /** JANE DOE, Door Supervision, expires 2027-06-06. */
  active: '1011001544208079',
  /** MARY ANNE O'BRIEN, Non Front Line with an empty sector. */
  expired: '1023004455667788',
  /** Has a status reason. */
  revoked: '1030112233445566',
  /** Has a status reason. */
  suspended: '1041223344556677',
  surrendered: '1052334455667788',
  /** Has a status reason. */
  refused: '1063445566778899',
  /** Active, with a status reason and additional conditions. */
  withConditions: '1074556677889900',
  /** Active, Non Front Line, empty sector. */
  nonFrontLine: '1107889900112233',
  /** Status "Under Review", a word the client has not seen. */
  unknownStatus: '1218990011223344',
  /** OLIVIA HUGHES, born 1990-04-12: her Expired Door Supervision licence... */
  renewedOld: '1229001122334455',
  /** ...and its Active successor. A name search for HUGHES finds both. */
  renewedNew: '1230112233445500',
  /** DANIEL ROBERT EVANS, born 1985-11-03: a Replaced Security Guarding card... */
  replacedOld: '1241223344556600',
  /** ...and the Active card that replaced it. */
  replacedNew: '1252334455667700',
  /** WILLIAM SMITH, Active: every name search on SMITH, his too, is answered "Too many search results". */
  commonSurname: '1263445566778800',
  /** "Too many search results" page. */
  tooMany: '1999000000000000',
  /** Two result cards for the same number. */
  twoCards: '1099000011112222',
  /** 16 digits, in no list: the not-found page. */
  notFound: '1888000000000000',
  fault503: '9000000000000503',
  fault500: '9000000000000500',
  fault429: '9000000000000429',
  fault404: '9000000000000404',
  faultHang: '9000000000000010',
  faultReset: '9000000000000011',
  /** A maintenance page served with status 200. */
  faultMaintenance: '9000000000000012',
  /** Status 200, HTML cut off inside a result card. */
  faultTruncated: '9000000000000013',
  /** Status 200, a page over 3 MiB. */
  faultOversize: '9000000000000014',
  /** 302 to /PublicRegister/Error. */
  faultRedirect: '9000000000000302',
} as const;

/** Every shipped number the register answers with one licence card, one per status and shape. */
export const FOUND_SANDBOX_NUMBERS: readonly string[] = [
  SANDBOX_NUMBERS.active,
  SANDBOX_NUMBERS.expired,
  SANDBOX_NUMBERS.revoked,
  SANDBOX_NUMBERS.suspended,
  SANDBOX_NUMBERS.surrendered,
  SANDBOX_NUMBERS.refused,
  SANDBOX_NUMBERS.withConditions,
  SANDBOX_NUMBERS.nonFrontLine,
];

/**
 * The demo's slow numbers: every number starting with the prefix is answered after the latency, longer than verify's
 * 5 s wait, so that a 202 and its retry can be shown (the launcher starts the sandbox so; the test register does
 * the same for test keys).
 */
export const DEMO_SLOW_NUMBERS = { prefix: '1077', latencyMs: 8000 } as const;
