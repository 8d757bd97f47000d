const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const REGISTER_DATE = /^(\d{1,2}) ([a-z]+) (\d{4})$/i;

/** Converts the register's "06 June 2027" (or "6 June 2027") to "2027-06-06"; null for anything else. */
export function parseRegisterDate(text: string): string | null {
  const match = REGISTER_DATE.exec(text);
  if (match === null) return null;
  const [, dayText, monthName, yearText] = match;
  const monthIndex = MONTH_NAMES.indexOf(monthName.toLowerCase());
  const day = Number(dayText);
  if (monthIndex === -1 || day < 1 || day > daysInMonth(Number(yearText), monthIndex)) return null;
  return `${yearText}-${String(monthIndex + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, monthIndex: number): number {
  const isLeapYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return monthIndex === 1 && isLeapYear ? 29 : DAYS_IN_MONTH[monthIndex];
}
