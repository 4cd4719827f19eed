import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isOpen, localMoment, WEEKDAYS } from './business-hours.rules.js';

const weekdays = Object.fromEntries(WEEKDAYS.map((day) => [day, [] as { opens: string; closes: string }[]]));
const hours = {
  time_zone: 'Europe/Berlin',
  weekly: {
    ...weekdays,
    monday: [
      { opens: '09:00', closes: '12:00' },
      { opens: '13:00', closes: '24:00' },
    ],
  } as Parameters<typeof isOpen>[0]['weekly'],
  holidays: ['2026-12-28'],
};

describe('business hours rules', () => {
  test('localMoment › the date, weekday and minute in the time zone, across daylight saving', () => {
    // 2026-03-30 is a Monday; Berlin is UTC+2 (summer time) from 2026-03-29.
    assert.deepEqual(localMoment(new Date('2026-03-30T07:30:00Z'), 'Europe/Berlin'), {
      date: '2026-03-30',
      weekday: 'monday',
      minute: 9 * 60 + 30,
    });
    // Late on Sunday in UTC is already Monday in Berlin (winter, UTC+1).
    assert.equal(localMoment(new Date('2026-11-29T23:30:00Z'), 'Europe/Berlin').weekday, 'monday');
  });

  test('isOpen › inside an interval only, the lunch break and other days closed, "24:00" the end of the day', () => {
    assert.equal(isOpen(hours, new Date('2026-11-30T07:59:00Z')), false, '08:59 Berlin');
    assert.equal(isOpen(hours, new Date('2026-11-30T08:00:00Z')), true, '09:00 Berlin');
    assert.equal(isOpen(hours, new Date('2026-11-30T11:30:00Z')), false, '12:30 Berlin: lunch');
    assert.equal(isOpen(hours, new Date('2026-11-30T22:59:00Z')), true, '23:59 Berlin');
    assert.equal(isOpen(hours, new Date('2026-12-01T10:00:00Z')), false, 'Tuesday: closed');
  });

  test('isOpen › a holiday is closed whatever the weekday says', () => {
    assert.equal(isOpen(hours, new Date('2026-12-28T10:00:00Z')), false, 'Monday 28 December');
  });
});
