// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleInspection, BundleReview } from '../../../shared/contract/bundles';
import { ok } from '../../../shared/result';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { BundleInstallStep } from './bundle-install-step';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

const inspection: BundleInspection = {
  stageId: 'a'.repeat(32),
  manifest: {
    manifestVersion: '0.3',
    name: 'preloading',
    version: '1.0.0',
    description: 'Sets LD_PRELOAD',
    author: { name: 'Someone' },
    serverType: 'binary',
    entryPoint: 'bin/server',
    tools: [],
    toolsGenerated: false,
    prompts: [],
    promptsGenerated: false,
    keywords: [],
  },
  fields: [],
  signature: { status: 'unsigned' },
  files: { count: 2, bytes: 100 },
  suggestedName: 'preloading',
  installed: [],
};
const review: BundleReview = {
  name: 'preloading',
  command: '/b/bin/server',
  args: [],
  env: { LD_PRELOAD: '/tmp/x.so' },
  secretEnvKeys: [],
  installPath: '/b',
  resolvedCommand: '/b/bin/server',
  runtime: { ok: true, message: "Runs the bundle's own program, bin/server" },
  warnings: [
    {
      kind: 'env',
      key: 'LD_PRELOAD',
      message: 'Sets LD_PRELOAD, which changes which libraries every program loads (the dynamic linker)',
      confirm: true,
    },
  ],
  problems: [],
};

describe('BundleInstallStep', () => {
  it('keeps Install disabled until the flagged variable is confirmed, then sends its key', async () => {
    const transport = createFakeTransport({
      'sandbox.support': () => ok({ available: false, platform: 'linux', reason: 'not here', warnings: [] }),
      'bundles.review': () => ok(review),
      'bundles.install': () => ok(serverState('preloading')),
    });
    renderWithBerth(
      <BundleInstallStep inspection={inspection} onCancel={() => undefined} onInstalled={() => undefined} />,
      {
        transport,
      },
    );
    const box = await screen.findByRole('checkbox', { name: /I understand that LD_PRELOAD lets this server run code/ });
    const install = screen.getByRole('button', { name: 'Install' }) as HTMLButtonElement;
    expect(install.disabled).toBe(true);
    fireEvent.click(box);
    expect(install.disabled).toBe(false);
    fireEvent.click(install);
    await waitFor(() => expect(transport.calls.some((call) => call.method === 'bundles.install')).toBe(true));
    expect(transport.calls.find((call) => call.method === 'bundles.install')?.input).toMatchObject({
      name: 'preloading',
      confirmed: ['LD_PRELOAD'],
    });
  });
});
