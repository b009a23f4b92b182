// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { Toasts } from './toasts';

afterEach(cleanup);

describe('the notifications region', () => {
  it('is named in the person’s language, with the key that jumps to it (not Radix’s English default)', async () => {
    await activateLocale('ko');
    renderWithBerth(<Toasts />);
    expect(screen.getByRole('region', { name: '알림(F8)' })).toBeTruthy();
  });

  it('keeps the English name in English', async () => {
    await activateLocale('en');
    renderWithBerth(<Toasts />);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy();
  });
});
