// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../shared/contract';
import type { LaunchPlan, RegistryEntryDetails } from '../../../shared/contract/registry';
import { ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { AVAILABLE, sandboxHandlers } from '../../test-support/sandbox-host';
import { EntryDetails } from './entry-details';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { registryError } from '../../../shared/domain/registry-errors';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const REGISTRY = 'https://registry.example.com';
const NAME = 'io.github.acme/tool';

function entry(version: string, patch: Partial<RegistryEntryDetails> = {}): RegistryEntryDetails {
  return {
    name: NAME,
    title: 'Tool',
    description: 'A tool',
    version,
    status: 'active',
    kinds: ['npm'],
    options: [
      {
        index: 0,
        kind: 'package',
        label: `tool@${version}`,
        registryType: 'npm',
        transport: 'stdio',
        runtime: 'npx',
        fields: [],
      },
    ],
    ...patch,
  };
}

function plan(patch: Partial<LaunchPlan> = {}): LaunchPlan {
  return {
    kind: 'stdio',
    command: 'npx',
    resolvedCommand: '/usr/bin/npx',
    args: ['-y', 'tool@1.1.0'],
    env: {},
    secretEnvKeys: [],
    secretHeaderNames: [],
    warnings: [],
    sandboxDefault: { enabled: true },
    ...patch,
  };
}

function mount(details: (version: string) => RegistryEntryDetails, reviewed: LaunchPlan, extra: FakeHandlers = {}) {
  return renderWithBerth(<EntryDetails registry={REGISTRY} name={NAME} onInstalled={() => undefined} />, {
    handlers: {
      ...sandboxHandlers([], AVAILABLE),
      'registry.details': ({ version }) =>
        ok({
          entry: details(version === undefined || version === 'latest' ? '1.1.0' : version),
          installedAs: [],
          fetchedAt: Date.now(),
          fromCache: false,
        }),
      'registry.versions': () =>
        ok({
          versions: [
            { version: '1.0.0', status: 'active', isLatest: false, publishedAt: '2026-01-05T10:01:00Z' },
            { version: '1.1.0', status: 'active', isLatest: true, publishedAt: '2026-01-05T10:02:00Z' },
          ],
          fetchedAt: Date.now(),
          fromCache: false,
        }),
      'registry.review': ({ serverName }) => ok({ ready: true, reviewId: 'r-1', serverName, plan: reviewed }),
      'registry.install': () => ok({ installed: true, server: 'tool' }),
      ...extra,
    },
  });
}

async function openReview() {
  fireEvent.click(await screen.findByRole('button', { name: /^Install Tool/ }));
  fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
  return screen.findByRole('region', { name: 'What tool runs' });
}

const installCalls = (transport: { calls: { method: string; input: unknown }[] }) =>
  transport.calls
    .filter((call) => call.method === 'registry.install')
    .map((call) => call.input as MethodInput<'registry.install'>);

describe('Discover: versions and the install review', () => {
  it('lists the registry’s versions, latest first and chosen, and installs the one picked', async () => {
    const { transport } = mount(entry, plan());
    const picker = await screen.findByRole('combobox', { name: 'Version' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1.1.0 (latest)', '1.0.0']);
    expect((picker as HTMLSelectElement).value).toBe('1.1.0');
    fireEvent.change(picker, { target: { value: '1.0.0' } });
    await screen.findByText('tool@1.0.0');
    await openReview();
    expect(transport.calls.find((call) => call.method === 'registry.review')?.input).toMatchObject({
      name: NAME,
      version: '1.0.0',
    });
  });

  it('a container starts with the OS sandbox off and says why in words; npm starts with it on', async () => {
    const { transport } = mount(
      entry,
      plan({
        command: 'docker',
        args: ['run', '-i', '--rm', 'acme/tool:1.1.0'],
        sandboxDefault: {
          enabled: false,
          reason: 'The OS sandbox is off: this server runs in its own container, which is its boundary.',
        },
      }),
    );
    await openReview();
    const theSwitch = await screen.findByRole('switch', { name: 'Run in the OS sandbox' });
    await waitFor(() => expect(theSwitch.hasAttribute('disabled')).toBe(false));
    expect(theSwitch.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('sandbox-default-reason').textContent).toBe(
      'The OS sandbox is off: this server runs in its own container, which is its boundary.',
    );
    // Not the sentence for an unsandboxed program, which a container is not.
    expect(screen.queryByText(/every right of your account/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Install and start' }));
    await waitFor(() =>
      expect(installCalls(transport)).toEqual([
        { reviewId: 'r-1', sandbox: { enabled: false, allowedFolders: [], allowedDomains: [] } },
      ]),
    );
    cleanup();
    mount(entry, plan());
    await openReview();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Run in the OS sandbox' }).getAttribute('aria-checked')).toBe('true'),
    );
    expect(screen.queryByTestId('sandbox-default-reason')).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Run in the OS sandbox' }));
    expect(screen.getByText(/every right of your account/)).toBeTruthy();
  });

  it('shows the publisher’s after-install steps as text, never as markup or a command it runs', async () => {
    const instructions = 'Run `tool login` once.\n<img src=x onerror=alert(1)> $(rm -rf ~)';
    mount((version) => entry(version, { postInstallInstructions: instructions }), plan());
    await openReview();
    const shown = screen.getByTestId('post-install-instructions');
    expect(shown.textContent).toBe(instructions);
    expect(shown.querySelector('img')).toBeNull();
    expect(screen.getByRole('heading', { name: 'After installing, its publisher says' })).toBeTruthy();
  });

  it('names a package registry other than the public one and installs only after its own yes', async () => {
    const source = {
      url: 'https://npm.evil.example',
      message: 'The entry says this package comes from https://npm.evil.example, not the public npm registry.',
    };
    const { transport } = mount(entry, plan({ packageSource: source }));
    await openReview();
    const note = screen.getByTestId('package-source');
    expect(note.textContent).toContain('Package source: https://npm.evil.example');
    expect(note.textContent).toContain(source.message);
    const install = screen.getByRole('button', { name: 'Install and start' });
    expect(install.hasAttribute('disabled')).toBe(true);
    fireEvent.click(install);
    expect(installCalls(transport)).toEqual([]);
    fireEvent.click(
      within(note).getByRole('checkbox', { name: 'I know where this package comes from and want to install it' }),
    );
    expect(install.hasAttribute('disabled')).toBe(false);
    fireEvent.click(install);
    await waitFor(() => expect(installCalls(transport)).toHaveLength(1));
    expect(installCalls(transport)[0]?.confirmed).toEqual(['source:https://npm.evil.example']);
  });

  it("words the package source's warning from its code, and again after a language switch", async () => {
    const words = registryError('registry-errors.package-source-image', { host: 'quay.io' });
    mount(
      entry,
      plan({ packageSource: { url: 'https://quay.io', message: words.text, hostMessage: words.hostMessage } }),
    );
    await openReview();
    const note = screen.getByTestId('package-source');
    expect(note.textContent).toContain('Install it only if you trust quay.io.');
    await act(() => activateLocale('ja'));
    expect(note.textContent).toContain(
      'このイメージは Docker Hub や GitHub のコンテナーレジストリではなく quay.io から取得されます。',
    );
  });

  it("keeps a refused field's code: the name taken reads in Korean, and again after a switch", async () => {
    const taken = registryError('registry-errors.name-taken', { name: 'tool' });
    mount(entry, plan(), {
      'registry.review': () =>
        ok({
          ready: false,
          errors: [{ field: 'serverName', message: taken.text, hostMessage: taken.hostMessage }],
        }),
    });
    await act(() => activateLocale('ko'));
    fireEvent.click(await screen.findByRole('button', { name: /Tool/ }));
    const review = await screen.findByRole('button', { name: '검토' });
    fireEvent.click(review);
    const alert = await screen.findByText('Berth에 이미 “tool” 서버가 있습니다. 다른 이름을 선택하세요');
    await act(() => activateLocale('ja'));
    expect(alert.textContent).toBe('Berth には「tool」という名前のサーバーがすでにあります。別の名前を選んでください');
  });
});
