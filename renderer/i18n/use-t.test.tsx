// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showableName } from '../../shared/domain/showable-name';
import { BerthI18nProvider } from './provider';
import { T } from './t';
import { translate, useT } from './use-t';

afterEach(cleanup);

// A tool name with a right-to-left override and a line break, as showableName shows it: escaped.
const SHOWN = showableName('wipe\u202Eexe.txt\nrm');

function Described() {
  const t = useT();
  return <p data-testid="line">{t('tasks.row.askedBy', { server: SHOWN })}</p>;
}

describe('values put into a message', () => {
  it('keep a shown escape as written: Lingui does not turn it back into the control character', () => {
    expect(SHOWN).toBe('wipe\\u202Eexe.txt\\u000Arm');
    expect(translate('tasks.row.progressLabel', { subject: SHOWN })).toBe(`Progress of ${SHOWN}`);
    render(
      <BerthI18nProvider>
        <Described />
        <p data-testid="rich">
          <T id="tasks.row.label" values={{ subject: SHOWN, server: 'files' }} />
        </p>
      </BerthI18nProvider>,
    );
    expect(screen.getByTestId('line').textContent).toBe(`Asked by ${SHOWN}`);
    expect(screen.getByTestId('rich').textContent).toBe(`${SHOWN} on files`);
  });
});

describe('translate() before the first catalog is active', () => {
  it('gives the id back instead of throwing (a transport failure worded while Berth starts)', async () => {
    vi.resetModules();
    const fresh = await import('./use-t');
    expect(fresh.translate('transport.connectionLost')).toBe('transport.connectionLost');
    const { activateLocale } = await import('./i18n');
    await activateLocale('en');
    expect(fresh.translate('transport.connectionLost')).toMatch(/^The connection to Berth was lost/);
  });
});
