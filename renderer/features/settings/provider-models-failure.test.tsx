// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { providerError } from '../../../shared/domain/provider-errors';
import { fail } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { ProviderModels } from './provider-models';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

// Issue 36: a refused listing is kept as the failure, so it reads in the person's language, and again after a switch.
describe("a provider's models that could not be listed", () => {
  it("words the host's code in the person's language, the provider's own words as they are, and follows a switch", async () => {
    await activateLocale('ko');
    const refused = providerError('provider-errors.list-models-failed', { detail: 'HTTP 503: upstream down' });
    renderWithBerth(<ProviderModels providerId="lab" providerLabel="Lab" models={[]} onChange={() => undefined} />, {
      handlers: { 'providers.listModels': () => fail('SERVER_ERROR', refused.text, undefined, refused.hostMessage) },
    });
    fireEvent.click(screen.getByRole('button', { name: /모델 가져오기/ }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^모델 목록을 가져올 수 없습니다: HTTP 503: upstream down\./);
    await act(() => activateLocale('ja'));
    expect(screen.getByRole('alert').textContent).toMatch(/^モデルの一覧を取得できません：HTTP 503: upstream down\./);
  });
});
