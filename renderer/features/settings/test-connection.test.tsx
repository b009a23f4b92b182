// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { providerError } from '../../../shared/domain/provider-errors';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { TestConnection } from './test-connection';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

// Issue 36: Berth's own refusal of the test (a base URL holding a password) keeps its code, so it reads in the
// person's language and follows a switch.
describe('"Test connection" refused by Berth itself', () => {
  it("words the refusal's code in the person's language", async () => {
    await activateLocale('ja');
    const refused = providerError('provider-errors.anthropic-base-url-credentials', {});
    renderWithBerth(<TestConnection providerId="anthropic" providerLabel="Anthropic" />, {
      handlers: {
        'providers.check': () => ({
          ok: true,
          value: { ok: false, message: refused.text, hostMessage: refused.hostMessage },
        }),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: /Anthropic/ }));
    const status = await screen.findByText(/ANTHROPIC_BASE_URL/);
    expect(status.textContent).toMatch(
      /^✗ Anthropic のベース URL（ANTHROPIC_BASE_URL または settings.json の baseURL）は使われません。/,
    );
    await act(() => activateLocale('ko'));
    expect(screen.getByRole('status').textContent).not.toMatch(/使われません|is not used/);
  });
});
