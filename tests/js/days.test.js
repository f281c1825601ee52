// Unit tests of the reader's calendar days (docs/assets/javascripts/days.js).
// Run by scripts/dev.sh test as `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import { addDays, calendarDay, dayOf, daysBetween, startOfDay } from "../../docs/assets/javascripts/days.js";

// A time zone with a clock change (this test file runs in a process of its own): the British
// clocks go forward on 2026-03-29, so that day is 23 hours long.
process.env.TZ = "Europe/London";

test("a moment's day is its local date, zero-padded", () => {
  assert.equal(dayOf(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
  assert.equal(dayOf(new Date(2026, 11, 31, 0, 0).getTime()), "2026-12-31");
});

test("days are added across months, years and leap days", () => {
  assert.equal(addDays("2026-12-30", 3), "2027-01-02");
  assert.equal(addDays("2028-02-28", 1), "2028-02-29");
  assert.equal(addDays("2026-03-01", -1), "2026-02-28");
  assert.equal(dayOf(startOfDay(new Date(2026, 1, 28, 15), 1)), "2026-03-01");
  assert.equal(startOfDay(new Date(2026, 1, 28, 15), 0).getHours(), 0);
});

test("only real calendar days are days", () => {
  assert.equal(calendarDay("2026-02-29"), null);
  assert.equal(calendarDay("2026-13-01"), null);
  assert.equal(calendarDay("2026-1-01"), null);
  assert.equal(calendarDay(20260101), null);
  assert.equal(dayOf(/** @type {Date} */ (calendarDay("2028-02-29"))), "2028-02-29");
});

test("days between two days are whole, and negative backwards", () => {
  assert.equal(daysBetween("2026-12-01", "2026-12-04"), 3);
  assert.equal(daysBetween("2026-12-04", "2026-12-01"), -3);
  assert.equal(daysBetween("2026-03-28", "2026-04-04"), 7, "across a clock change");
  assert.throws(() => daysBetween("2026-12-01", "soon"), /not a calendar day: soon/);
});
