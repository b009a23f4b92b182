// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AVAILABLE, MISSING, sandboxHandlers } from '../../test-support/sandbox-host';
import type { SandboxChoice } from './sandbox-draft';
import { useReviewSandbox, type SuggestedDomain } from './review-sandbox';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

const NPM: SuggestedDomain[] = [{ domain: 'registry.npmjs.org', why: 'npx downloads the package from it' }];

/** The review's sandbox part with an Install button that reports what would be sent. */
function Review({
  suggested,
  onInstall,
}: {
  suggested: SuggestedDomain[];
  onInstall: (choice: SandboxChoice | false) => void;
}) {
  const sandbox = useReviewSandbox(suggested);
  return (
    <>
      {sandbox.section}
      <button type="button" onClick={() => onInstall(sandbox.check())}>
        Install
      </button>
    </>
  );
}

const theSwitch = () => screen.getByRole('switch', { name: 'Run in the OS sandbox' });

describe('the sandbox in an install review', () => {
  it('is on by default where the machine has it, with the declared domains filled in and said why', async () => {
    const sent: Array<SandboxChoice | false> = [];
    renderWithBerth(<Review suggested={NPM} onInstall={(c) => sent.push(c)} />, {
      handlers: sandboxHandlers([], AVAILABLE),
    });
    await waitFor(() => expect(theSwitch().hasAttribute('disabled')).toBe(false));
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    expect((screen.getByRole('textbox', { name: 'Domain 1' }) as HTMLInputElement).value).toBe('registry.npmjs.org');
    expect(screen.getByTestId('sandbox-suggested').textContent).toBe(
      'Filled in from what it declares: registry.npmjs.org (npx downloads the package from it).',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Install' }));
    expect(sent).toEqual([{ enabled: true, allowedFolders: [], allowedDomains: ['registry.npmjs.org'] }]);
  });

  it('the person may turn it off before anything is saved', async () => {
    const sent: Array<SandboxChoice | false> = [];
    renderWithBerth(<Review suggested={NPM} onInstall={(c) => sent.push(c)} />, {
      handlers: sandboxHandlers([], AVAILABLE),
    });
    await waitFor(() => expect(theSwitch().hasAttribute('disabled')).toBe(false));
    fireEvent.click(theSwitch());
    fireEvent.click(screen.getByRole('button', { name: 'Install' }));
    expect(sent).toEqual([{ enabled: false, allowedFolders: [], allowedDomains: ['registry.npmjs.org'] }]);
  });

  it('where the machine cannot sandbox: off, disabled, with the reason — and before the host answers, on (never off by a race)', async () => {
    const sent: Array<SandboxChoice | false> = [];
    const { transport } = renderWithBerth(<Review suggested={[]} onInstall={(c) => sent.push(c)} />, {
      handlers: sandboxHandlers([], MISSING),
    });
    // Pressed before the host's answer arrived: the protective default goes out (the host refuses it in words where it cannot).
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Install' })));
    expect(sent[0]).toMatchObject({ enabled: true });
    await waitFor(() =>
      expect(screen.getByTestId('sandbox-unavailable').textContent).toContain('bubblewrap (bwrap) is not installed'),
    );
    expect(theSwitch().getAttribute('aria-checked')).toBe('false');
    expect(theSwitch().hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Install' }));
    expect(sent[1]).toMatchObject({ enabled: false });
    expect(transport.calls.some((c) => c.method === 'sandbox.support')).toBe(true);
  });
});
