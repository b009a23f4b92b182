import { afterEach, describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatRelativeTime,
  formatTime,
} from './format';
import { activateLocale } from './i18n';

afterEach(async () => {
  await activateLocale('en');
});

const NOON = Date.UTC(2026, 11, 7, 12, 5, 9);

describe('formatting in the active locale', () => {
  it('follows the locale for numbers, sizes and durations', async () => {
    expect(formatNumber(12345)).toBe('12,345');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3.25 * 1024 * 1024)).toBe('3.3 MB');
    expect(formatDuration(12_000)).toBe('12 sec');
    expect(formatDuration(185_000)).toBe('3 min 5 sec');
    expect(formatDuration(3_720_000)).toBe('1 hr 2 min');

    await activateLocale('zh-CN');
    expect(formatDuration(185_000)).toBe('3分钟5秒');
    await activateLocale('ko');
    expect(formatDuration(12_000)).toBe('12초');
    await activateLocale('ja');
    expect(formatBytes(1536)).toBe('1.5 KB');
  });

  it('writes dates and times as the locale does', async () => {
    const en = { dateTime: formatDateTime(NOON), date: formatDate(NOON), time: formatTime(NOON) };
    await activateLocale('zh-CN');
    expect(formatDate(NOON)).toMatch(/2026年12月7日/);
    expect(formatDateTime(NOON)).not.toBe(en.dateTime);
    await activateLocale('ko');
    expect(formatDate(NOON)).toMatch(/2026\. 12\. 7\./);
    expect(formatTime(NOON)).not.toBe(en.time);
    expect(en.date).toBe('Dec 7, 2026');
  });

  it('says how long ago in words', async () => {
    const now = NOON;
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 24 * 3600_000, now)).toBe('yesterday');
    expect(formatRelativeTime(now + 2 * 3600_000, now)).toBe('in 2 hours');
    await activateLocale('zh-CN');
    expect(formatRelativeTime(now - 24 * 3600_000, now)).toBe('昨天');
    await activateLocale('ja');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 分前');
  });
});
