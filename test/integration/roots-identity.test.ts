import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RootsView } from '../../shared/contract/roots';
import type { LogEntry } from '../../shared/domain/log';
import type { PendingChange, PendingRequestOf } from '../../shared/domain/pending';
import type { RootView } from '../../shared/domain/roots';
import { hostPerTest, waitFor } from './host-harness';
import { everythingServer } from './roots-harness';

/** Folder access answers belong to the program they were given to, through the real host and server-everything. */
describe('roots: answers are bound to the server identity', () => {
  const berth = hostPerTest('berth-roots-identity-');

  const rootsUpdates = async (): Promise<string[]> => {
    const { entries } = await berth.harness.call<{ entries: LogEntry[] }>('logs.query', {
      server: 'everything',
      sources: ['notification'],
    });
    return entries.map((entry) => entry.text).filter((text) => text.includes('Roots updated'));
  };

  const rootConsentsSince = (mark: number): PendingRequestOf<'root-consent'>[] =>
    berth.harness.events.slice(mark).flatMap((event) => {
      if (event.topic !== 'pending.changed') return [];
      const { change } = event.payload as PendingChange;
      return change.type === 'opened' && change.request.kind === 'root-consent' ? [change.request] : [];
    });

  it('a new working folder kept by the person sees its roots without asking; one not kept is asked again', async () => {
    const harness = await berth.start();
    const project = join(berth.dir, 'project');
    await mkdir(project);
    const root = await harness.call<RootView>('roots.add', { path: project, name: 'Project' });

    let mark = harness.events.length;
    await harness.call('servers.add', { name: 'everything', config: everythingServer() });
    await waitFor(() => rootConsentsSince(mark).length === 1);
    await harness.call('pending.answer', { id: rootConsentsSince(mark)[0]?.id, response: { allow: [root.id] } });
    await waitFor(async () => (await rootsUpdates()).length === 1);

    // Edited in Berth, approvals kept: the restarted process gets the root without a question.
    mark = harness.events.length;
    await harness.call('servers.update', {
      name: 'everything',
      config: { ...everythingServer(), cwd: berth.dir },
      approvals: 'keep',
    });
    await waitFor(async () => (await rootsUpdates()).length === 2);
    expect((await rootsUpdates())[1]).toMatch(/1 root\(s\)/);
    expect(rootConsentsSince(mark)).toEqual([]);
    expect((await harness.call<RootsView>('roots.list', {})).consent.everything).toEqual({
      allowed: [root.id],
      denied: [],
    });

    // Edited again without keeping: a different program is asked before it sees anything.
    mark = harness.events.length;
    await harness.call('servers.update', { name: 'everything', config: { ...everythingServer(), cwd: project } });
    await waitFor(() => rootConsentsSince(mark).length === 1);
    expect(rootConsentsSince(mark)[0]?.payload.roots).toEqual([{ id: root.id, name: 'Project', path: project }]);
    expect((await harness.call<RootsView>('roots.list', {})).consent.everything).toBeUndefined();
    await harness.call('pending.answer', { id: rootConsentsSince(mark)[0]?.id, response: { allow: [] } });
    await waitFor(async () => (await rootsUpdates()).length === 3);
    expect((await rootsUpdates())[2]).toMatch(/0 root\(s\)/);
  });
});
