import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../shared/domain/chat';
import { fail, ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { applyConversationsDelta } from './chat-slice';
import { connectStore, createBerthStore } from './create-store';
import { shownToasts } from '../test-support/shown-toasts';

function summary(id: string, updatedAt: number, title = id): ConversationSummary {
  return { id, title, createdAt: 1, updatedAt, model: 'm', messageCount: 0 };
}

describe('conversation list deltas', () => {
  it('puts a changed summary at its sorted place, replaces the old entry, and drops removed ids', () => {
    const list = [summary('d', 40), summary('c', 30), summary('b', 20), summary('a', 10)];
    const next = applyConversationsDelta(list, {
      changed: [summary('a', 35, 'A again'), summary('e', 25)],
      removed: ['c'],
    });
    expect(next.map((entry) => `${entry.id}:${entry.title}`)).toEqual(['d:d', 'a:A again', 'e:e', 'b:b']);
    // Ties on time go by id, as the host sorts.
    expect(
      applyConversationsDelta([summary('a', 5), summary('c', 5)], { changed: [summary('b', 5)], removed: [] }).map(
        (entry) => entry.id,
      ),
    ).toEqual(['a', 'b', 'c']);
    expect(list.map((entry) => entry.id)).toEqual(['d', 'c', 'b', 'a']);
  });

  it('applies chat.conversationsChanged deltas to a 5,000-conversation list without replacing untouched rows', () => {
    const transport = createFakeTransport();
    const store = createBerthStore(transport);
    connectStore(store, transport);
    const many = Array.from({ length: 5_000 }, (_, index) =>
      summary(`c${String(index).padStart(4, '0')}`, 10_000 - index),
    );
    store.getState().applyConversationsChanged(many);
    const untouched = store.getState().conversations[10];
    transport.emit('chat.conversationsChanged', {
      changed: [{ ...summary('c4999', 20_000), messageCount: 7 }],
      removed: ['c0000'],
    });
    const after = store.getState().conversations;
    expect(after).toHaveLength(4_999);
    expect(after[0]).toMatchObject({ id: 'c4999', messageCount: 7 });
    expect(after.some((entry) => entry.id === 'c0000')).toBe(false);
    expect(after.find((entry) => entry.id === untouched!.id)).toBe(untouched);
  });

  it('renames at once and rolls back with an error when the host refuses', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const transport = createFakeTransport({
      'chat.rename': ({ title }) =>
        new Promise((resolve) => {
          answer = () =>
            resolve(
              title === 'Bad' ? fail('INVALID_INPUT', 'That title is not allowed') : ok({ ...summary('a', 50), title }),
            );
        }),
    });
    const store = createBerthStore(transport);
    store.getState().applyConversationsChanged([summary('b', 20), summary('a', 10, 'Old')]);

    const good = store.getState().renameConversation('a', 'New');
    expect(store.getState().conversations.find((entry) => entry.id === 'a')?.title).toBe('New');
    answer(undefined);
    await good;
    expect(store.getState().conversations.map((entry) => `${entry.id}:${entry.title}`)).toEqual(['a:New', 'b:b']);

    const bad = store.getState().renameConversation('a', 'Bad');
    expect(store.getState().conversations[0]?.title).toBe('Bad');
    answer(undefined);
    expect((await bad).ok).toBe(false);
    expect(store.getState().conversations[0]?.title).toBe('New');
    expect(shownToasts(store).at(-1)).toMatchObject({ title: 'Could not rename “New”' });
  });
});

describe('conversation list deltas, checked against a full sort', () => {
  const sorted = (list: ConversationSummary[]) =>
    [...list].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  it('gives the list a full sort would, for one change that keeps its place, moves, is new, or ties', () => {
    const list = sorted([summary('a', 50), summary('b', 40), summary('c', 40), summary('d', 30), summary('e', 10)]);
    const cases: ConversationSummary[] = [
      summary('a', 60, 'first, still first'),
      summary('c', 35, 'in the middle, keeps its place'),
      summary('e', 5, 'last, still last'),
      summary('d', 55, 'moves to the top'),
      summary('a', 20, 'moves down'),
      summary('f', 45, 'new'),
      summary('d', 40, 'ties with b and c: goes by id'),
      summary('b', 40, 'same time, new title'),
    ];
    for (const changed of cases) {
      const expected = sorted([...list.filter((entry) => entry.id !== changed.id), changed]);
      const next = applyConversationsDelta(list, { changed: [changed], removed: [] });
      expect(next, changed.title).toEqual(expected);
      expect(
        next.find((entry) => entry.id === changed.id),
        changed.title,
      ).toBe(changed);
    }
    expect(list.map((entry) => entry.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
