import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../shared/result';
import { createFakeTransport, type FakeHandlers } from '../test-support/fake-transport';
import { createBerthStore, optionalToolsAsTasksOf, sendsInstructionsOf } from '.';
import { shownToasts } from '../test-support/shown-toasts';

type Store = ReturnType<typeof createBerthStore>;

/** How the fake host answers a write: after `gate`, with a refusal or with the value it keeps (not always the one asked for). */
interface HostAnswer {
  gate?: Promise<void>;
  refuse?: boolean;
  keeps?: boolean;
}

const refusal = fail('NOT_FOUND', 'No server named "files"');

// Both slices are the one helper configured twice: each case runs against both.
const settings = [
  {
    name: 'instructions',
    of: sendsInstructionsOf,
    handlers: (list: Array<[string, boolean]>, answer: HostAnswer = {}): FakeHandlers => ({
      'servers.instructionsSettings': () =>
        ok(list.map(([server, sendInstructions]) => ({ server, sendInstructions }))),
      'servers.setSendInstructions': async ({ server, sendInstructions }) => {
        await answer.gate;
        return answer.refuse ? refusal : ok({ server, sendInstructions: answer.keeps ?? sendInstructions });
      },
    }),
    unreadable: { 'servers.instructionsSettings': () => fail('INTERNAL', 'broken') } satisfies FakeHandlers,
    load: (store: Store) => store.getState().loadInstructionsSettings(),
    set: (store: Store, server: string, value: boolean) => store.getState().setSendInstructions(server, value),
    failureTitle: 'Could not change whether the model gets the instructions of “files”',
  },
  {
    name: 'tasks',
    of: optionalToolsAsTasksOf,
    handlers: (list: Array<[string, boolean]>, answer: HostAnswer = {}): FakeHandlers => ({
      'tasks.serverSettings': () =>
        ok(list.map(([server, optionalToolsAsTasks]) => ({ server, optionalToolsAsTasks }))),
      'tasks.setServerSettings': async ({ server, optionalToolsAsTasks }) => {
        await answer.gate;
        return answer.refuse ? refusal : ok({ server, optionalToolsAsTasks: answer.keeps ?? optionalToolsAsTasks });
      },
    }),
    unreadable: { 'tasks.serverSettings': () => fail('INTERNAL', 'broken') } satisfies FakeHandlers,
    load: (store: Store) => store.getState().loadTaskServerSettings(),
    set: (store: Store, server: string, value: boolean) => store.getState().setOptionalToolsAsTasks(server, value),
    failureTitle: 'Could not change how “files” runs long tool calls',
  },
];

describe.each(settings)('the per-server setting: $name', (setting) => {
  it('is yes for a server the host has not reported, and the host’s value once loaded', async () => {
    const store = createBerthStore(
      createFakeTransport(
        setting.handlers([
          ['files', false],
          ['notes', true],
        ]),
      ),
    );
    expect(setting.of(store.getState(), 'files')).toBe(true);
    await setting.load(store);
    expect(setting.of(store.getState(), 'files')).toBe(false);
    expect(setting.of(store.getState(), 'notes')).toBe(true);
    expect(setting.of(store.getState(), 'unknown')).toBe(true);
  });

  it('shows a change at once, then keeps what the host answers', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const store = createBerthStore(createFakeTransport(setting.handlers([], { gate, keeps: true })));
    const writing = setting.set(store, 'files', false);
    expect(setting.of(store.getState(), 'files')).toBe(false);
    open();
    await writing;
    expect(setting.of(store.getState(), 'files')).toBe(true);
    expect(shownToasts(store)).toEqual([]);
  });

  it('puts the value back and says so when the host refuses', async () => {
    const store = createBerthStore(createFakeTransport(setting.handlers([['files', false]], { refuse: true })));
    await setting.load(store);
    await setting.set(store, 'files', true);
    expect(setting.of(store.getState(), 'files')).toBe(false);
    expect(shownToasts(store).map((t) => t.title)).toEqual([setting.failureTitle]);
  });

  it('says so when the list cannot be read, and keeps what it had', async () => {
    const store = createBerthStore(createFakeTransport(setting.unreadable));
    await setting.load(store);
    expect(setting.of(store.getState(), 'files')).toBe(true);
    expect(shownToasts(store)).toHaveLength(1);
  });
});
