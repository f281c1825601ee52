// Calendar days in the reader's time zone, "YYYY-MM-DD": what a due date, a rating's day and an
// interview date are to a reader. Small and with no page, so that every page can mark what is due
// without the progress rules (progress-core.js). Unit-tested by `node --test tests/js`.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DAY_MS = 86400000;

/** The local calendar date of a moment, "YYYY-MM-DD".
 * @param {Date | number | string} moment @returns {string} */
export function dayOf(moment) {
  const date = new Date(moment);
  return date.getFullYear() + "-" + String(date.getMonth() + 1).padStart(2, "0") + "-" +
    String(date.getDate()).padStart(2, "0");
}

/** Today's local date. @returns {string} */
export function today() { return dayOf(new Date()); }

/** A real calendar date "YYYY-MM-DD", as the local midnight it starts at.
 * @param {unknown} text @returns {Date | null} */
export function calendarDay(text) {
  if (typeof text !== "string" || text.length !== 10) return null;
  const m = DAY.exec(text);
  if (!m) return null;
  const date = new Date(+m[1], +m[2] - 1, +m[3]);
  if (date.getFullYear() !== +m[1] || date.getMonth() !== +m[2] - 1 || date.getDate() !== +m[3]) return null;
  return date;
}

/** Local midnight `days` days after the day of `moment`.
 * @param {Date | number} moment @param {number} days @returns {Date} */
export function startOfDay(moment, days) {
  const date = new Date(moment);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The day `days` days after `iso`. @param {string} iso "YYYY-MM-DD" @param {number} days
 * @returns {string} */
export function addDays(iso, days) {
  const parts = iso.split("-").map(Number);
  return dayOf(new Date(parts[0], parts[1] - 1, parts[2] + days));
}

/** Whole days from one day to another (negative when `to` is earlier), across clock changes.
 * @param {string} from "YYYY-MM-DD" @param {string} to "YYYY-MM-DD" @returns {number} */
export function daysBetween(from, to) {
  const start = calendarDay(from), end = calendarDay(to);
  if (!start || !end) throw new RangeError("not a calendar day: " + (start ? to : from));
  return Math.round((end.getTime() - start.getTime()) / DAY_MS);
}
