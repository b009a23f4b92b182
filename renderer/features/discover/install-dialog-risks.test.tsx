// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LaunchPlan, RegistryEntryDetails } from '../../../shared/contract/registry';
import { ok } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { InstallDialog } from './install-dialog';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

const REGISTRY = 'https://registry.example.com';
const entry: RegistryEntryDetails = {
  name: 'io.github.x/shell-env',
  description: 'x',
  version: '1.0.0',
  status: 'active',
  kinds: ['oci'],
  options: [
    {
      index: 0,
      kind: 'package',
      label: 'ghcr.io/x/shell:1',
      registryType: 'oci',
      transport: 'stdio',
      runtime: 'docker',
      fields: [],
    },
  ],
};
const plan = (warnings: LaunchPlan['warnings']): LaunchPlan => ({
  kind: 'stdio',
  command: 'docker',
  resolvedCommand: '/usr/bin/docker',
  args: ['run', '-i', '--rm', '--privileged', 'ghcr.io/x/shell:1'],
  env: { BASH_ENV: '/tmp/x' },
  secretEnvKeys: [],
  secretHeaderNames: [],
  warnings,
});
const FLAGGED: LaunchPlan['warnings'] = [
  {
    kind: 'env',
    key: 'BASH_ENV',
    message: 'Sets BASH_ENV, which names a file every non-interactive bash runs first',
    confirm: true,
  },
  {
    kind: 'docker',
    key: 'docker:--privileged',
    message: 'Docker option --privileged gives the container every device and kernel ability of the host',
    confirm: true,
  },
];

function mount(warnings: LaunchPlan['warnings']) {
  const transport = createFakeTransport({
    'sandbox.support': () => ok({ available: false, platform: 'linux', reason: 'not here', warnings: [] }),
    'registry.review': () =>
      ok({ ready: true as const, reviewId: 'r1', serverName: 'shell-env', plan: plan(warnings) }),
    'registry.install': () => ok({ installed: true as const, server: 'shell-env' }),
  });
  renderWithBerth(
    <InstallDialog
      registry={REGISTRY}
      entry={entry}
      option={entry.options[0]!}
      onClose={() => undefined}
      onInstalled={() => undefined}
    />,
    {
      transport,
    },
  );
  return transport;
}

const installInputs = (transport: ReturnType<typeof createFakeTransport>) =>
  transport.calls.filter((call) => call.method === 'registry.install').map((call) => call.input);

describe('InstallDialog review', () => {
  it('keeps Install disabled until the flagged variables and options are confirmed by name, then sends exactly their keys', async () => {
    const transport = mount(FLAGGED);
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    const install = await screen.findByRole('button', { name: 'Install and start' });
    expect((install as HTMLButtonElement).disabled).toBe(true);
    const box = screen.getByRole('checkbox', {
      name: /I understand that BASH_ENV, --privileged let this server run code/,
    });
    fireEvent.click(install);
    expect(installInputs(transport)).toEqual([]);
    fireEvent.click(box);
    expect((install as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(install);
    await waitFor(() => expect(installInputs(transport)).toHaveLength(1));
    expect(installInputs(transport)[0]).toMatchObject({
      reviewId: 'r1',
      confirmed: ['BASH_ENV', 'docker:--privileged'],
    });
  });

  it('asks nothing more when nothing is flagged', async () => {
    const transport = mount([{ kind: 'command', message: 'not flagged for confirmation' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    const install = await screen.findByRole('button', { name: 'Install and start' });
    expect(screen.queryByRole('checkbox', { name: /I understand/ })).toBeNull();
    expect((install as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(install);
    await waitFor(() => expect(installInputs(transport)).toHaveLength(1));
    expect(installInputs(transport)[0]).not.toHaveProperty('confirmed');
  });
});
