import { describe, expect, it } from 'vitest';
import type { PendingPayload } from '../../shared/domain/pending';
import { RunningToolCalls } from './running-tool-calls';
import { PendingRequests } from './pending-requests';
import type { PersonWaits } from '../servers/pausable-timeout';

const form: PendingPayload<'elicitation'> = {
  mode: 'form',
  message: 'Your name?',
  fields: [{ name: 'name', label: 'Name', required: true, kind: 'string' }],
};

/** A queue, the calls linked to it, and a way to start a tagged call that runs until released. */
function world() {
  let next = 0;
  const pending = new PendingRequests({ newId: () => `q${++next}` });
  const calls = new RunningToolCalls(pending);
  const start = (server: string, conversationId: string, toolUseId: string, signal?: AbortSignal) => {
    const args = {};
    calls.tag(args, { conversationId, toolUseId });
    const waiting: Array<string | null> = [];
    const pauses: boolean[] = [];
    let finish: (outcome: 'ok' | Error) => void = () => undefined;
    let waits: PersonWaits | undefined;
    const done = calls.run(
      server,
      args,
      (given) => {
        waits = given;
        given?.onChange((paused) => pauses.push(paused));
        return new Promise<string>(
          (resolve, reject) => (finish = (outcome) => (outcome === 'ok' ? resolve('ok') : reject(outcome))),
        );
      },
      { onWaiting: (id) => waiting.push(id), ...(signal === undefined ? {} : { signal }) },
    );
    return { done, waiting, pauses, finish: (outcome: 'ok' | Error = 'ok') => finish(outcome), waits: () => waits };
  };
  return { pending, calls, start };
}

describe('RunningToolCalls', () => {
  it('attributes a request to the one call running on its server, and only while it runs', async () => {
    const calls = new RunningToolCalls();
    const args = { message: 'hi' };
    calls.tag(args, { conversationId: 'c1', toolUseId: 't1' });
    let release: () => void = () => undefined;
    const running = calls.run(
      'everything',
      args,
      () => new Promise<string>((resolve) => (release = () => resolve('done'))),
    );
    expect(calls.originOf('everything')).toEqual({ conversationId: 'c1', toolUseId: 't1' });
    expect(calls.originOf('other')).toEqual({});
    release();
    expect(await running).toBe('done');
    expect(calls.originOf('everything')).toEqual({});
  });

  it('claims only the conversation when several of its calls run, and nothing across conversations', async () => {
    const calls = new RunningToolCalls();
    const pending: Array<() => void> = [];
    const start = (conversationId: string, toolUseId: string) => {
      const args = {};
      calls.tag(args, { conversationId, toolUseId });
      return calls.run('s', args, () => new Promise<void>((resolve) => pending.push(resolve)));
    };
    const a = start('c1', 't1');
    const b = start('c1', 't2');
    expect(calls.originOf('s')).toEqual({ conversationId: 'c1' });
    const c = start('c2', 't3');
    expect(calls.originOf('s')).toEqual({});
    for (const resolve of pending) resolve();
    await Promise.all([a, b, c]);
    expect(calls.originOf('s')).toEqual({});
  });

  it('runs untagged calls without registering them, and unregisters a call that fails', async () => {
    const calls = new RunningToolCalls();
    expect(await calls.run('s', {}, async () => 1)).toBe(1);
    const args = {};
    calls.tag(args, { conversationId: 'c', toolUseId: 't' });
    await expect(calls.run('s', args, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(calls.originOf('s')).toEqual({});
  });

  it('pauses a call while its own question waits, names that question, and resumes when it is answered', async () => {
    const { pending, start } = world();
    const call = start('everything', 'c1', 't1');
    expect(call.waits()?.waiting).toBe(false);
    const answer = pending.open('elicitation', 'everything', form, { conversationId: 'c1', toolUseId: 't1' });
    expect(call.waits()?.waiting).toBe(true);
    expect(call.waiting).toEqual(['q1']);
    // A second question keeps it paused; the card still opens the first.
    void pending.open('elicitation', 'everything', form, { conversationId: 'c1', toolUseId: 't1' });
    pending.answer('q1', { action: 'accept', content: { name: 'Ada' } });
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(call.waiting).toEqual(['q1', 'q2']);
    expect(call.waits()?.waiting).toBe(true);
    pending.answer('q2', { action: 'decline' });
    expect(call.waiting).toEqual(['q1', 'q2', null]);
    expect(call.pauses).toEqual([true, false]);
    call.finish();
    expect(await call.done).toBe('ok');
  });

  it('ignores the consent to the call itself and questions of other servers', () => {
    const { pending, start } = world();
    const call = start('everything', 'c1', 't1');
    void pending.open(
      'tool-call',
      'everything',
      { server: 'everything', serverTrusted: false, tool: 'x', annotationsTrusted: false, arguments: {} },
      { conversationId: 'c1', toolUseId: 't1' },
    );
    void pending.open('elicitation', 'other', form);
    expect(call.pauses).toEqual([]);
    expect(call.waiting).toEqual([]);
  });

  it('pauses every call a question may belong to, but shows it on none of their cards', async () => {
    const { pending, start } = world();
    const a = start('s', 'c1', 't1');
    const b = start('s', 'c1', 't2');
    const other = start('s', 'c2', 't3');
    void pending.open('elicitation', 's', form, { conversationId: 'c1' });
    expect([a.pauses, b.pauses, other.pauses]).toEqual([[true], [true], []]);
    expect(a.waiting).toEqual([]);
    // One of the two ends: the question stays for the other, which stays paused.
    a.finish();
    await a.done;
    expect(pending.list().map((r) => r.id)).toEqual(['q1']);
    expect(b.pauses).toEqual([true]);
    // The last call of that conversation on the server ends: nothing could use the answer, so it goes.
    b.finish();
    await b.done;
    expect(pending.list()).toEqual([]);
    other.finish();
    await other.done;
  });

  it('withdraws the questions of a call that ends, saying how it ended', async () => {
    const { pending, start } = world();
    const notes: string[] = [];
    pending.onChange(({ change }) => {
      if (change.type === 'withdrawn') notes.push(change.note);
    });
    const finished = start('s', 'c1', 't1');
    const asked = pending.open('elicitation', 's', form, { conversationId: 'c1', toolUseId: 't1' });
    finished.finish();
    await finished.done;
    expect(await asked).toEqual({
      withdrawn: true,
      note: 'the tool call that asked this finished without waiting for your answer',
      noteMessage: { code: 'withdrawal.call-finished' },
    });
    expect(finished.waiting).toEqual(['q1', null]);

    const failed = start('s', 'c1', 't2');
    void pending.open('elicitation', 's', form, { conversationId: 'c1', toolUseId: 't2' });
    failed.finish(new Error("server 's' exited (code 1) while tools/call was in progress"));
    await expect(failed.done).rejects.toThrow('exited');

    const stop = new AbortController();
    const stopped = start('s', 'c1', 't3', stop.signal);
    void pending.open('elicitation', 's', form, { conversationId: 'c1', toolUseId: 't3' });
    stop.abort();
    stopped.finish(new Error('cancelled'));
    await expect(stopped.done).rejects.toThrow();
    expect(notes).toEqual([
      'the tool call that asked this finished without waiting for your answer',
      "the tool call that asked this ended with an error: server 's' exited (code 1) while tools/call was in progress",
      'the tool call that asked this was stopped',
    ]);
    expect(pending.list()).toEqual([]);
  });

  it('withdraws at once a question for a call that has already ended, and keeps one that names no conversation', async () => {
    const { pending, start } = world();
    const late = pending.open('elicitation', 's', form, { conversationId: 'c1', toolUseId: 'gone' });
    expect(await late).toEqual({
      withdrawn: true,
      note: 'the tool call that asked this had already ended',
      noteMessage: { code: 'withdrawal.call-ended' },
    });
    const call = start('s', 'c1', 't1');
    void pending.open('elicitation', 's', form);
    expect(call.pauses).toEqual([true]);
    call.finish();
    await call.done;
    expect(pending.list().map((r) => r.id)).toEqual(['q2']);
  });

  it("holds a call while Berth answers its server's sampling request (the model's reply too), without naming a question", async () => {
    const { calls, start } = world();
    const call = start('s', 'c1', 't1');
    let reply: (text: string) => void = () => undefined;
    const answered = calls.holdWhile(
      's',
      calls.originOf('s'),
      () => new Promise<string>((resolve) => (reply = resolve)),
    );
    expect(call.waits()?.waiting).toBe(true);
    expect(call.waiting).toEqual([]);
    reply('a sampled answer');
    expect(await answered).toBe('a sampled answer');
    expect(call.pauses).toEqual([true, false]);
    // A failure releases the hold as well.
    await expect(
      calls.holdWhile('s', { conversationId: 'c1', toolUseId: 't1' }, async () =>
        Promise.reject(new Error('model down')),
      ),
    ).rejects.toThrow('model down');
    expect(call.pauses).toEqual([true, false, true, false]);
    call.finish();
    await call.done;
  });
});
