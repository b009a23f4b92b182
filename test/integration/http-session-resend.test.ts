import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteEverything, freePort } from '../../app/servers/test-support';
import type { CompletionResult, PromptResult } from '../../shared/contract/prompts';
import type { ResourcePart } from '../../shared/contract/resources';
import type { LogEntry } from '../../shared/domain/log';
import { hostPerTest, type HostHarness } from './host-harness';

/**
 * Prompts, resources and completions reach a remote server through the same
 * bridge methods the renderer calls; when the server forgets the session (or
 * restarts) each of them must come back with an answer, not an error, while
 * Berth reconnects underneath.
 */
describe('a lost HTTP session, survived by every kind of request (through the bridge)', () => {
  let remote: RemoteEverything;

  beforeEach(async () => {
    remote = new RemoteEverything('streamableHttp', await freePort());
    await remote.start();
  });
  afterEach(async () => {
    await remote.kill();
  });
  // Registered after the remote server's hooks: the host is shut down before the server is killed.
  const berth = hostPerTest('berth-http-resend-');

  async function hostLog(h: HostHarness): Promise<string[]> {
    const { entries } = await h.call<{ entries: LogEntry[] }>('logs.query', { server: 'remote', limit: 10_000 });
    return entries.filter((entry) => entry.source === 'host').map((entry) => entry.text);
  }

  /** Ends the newest session behind Berth's back, as a server that expires it would. */
  async function forgetSession(): Promise<void> {
    const ids = remote.output.flatMap((text) =>
      [...text.matchAll(/Session initialized with ID: (\S+)/g)].map((match) => match[1] ?? ''),
    );
    const ended = await fetch(remote.url, { method: 'DELETE', headers: { 'mcp-session-id': ids.at(-1) ?? '' } });
    expect(ended.status).toBe(200);
  }

  /** The whole process goes and comes back on the same port: every session it knew is gone. */
  async function restartServer(): Promise<void> {
    await remote.kill();
    await remote.start();
  }

  const cases = [
    {
      method: 'prompts.get',
      disrupt: forgetSession,
      input: { server: 'remote', name: 'args-prompt', arguments: { city: 'Paris', state: 'TX' } },
      check: (value: unknown) =>
        expect((value as PromptResult).messages).toEqual([
          { role: 'user', content: { type: 'text', text: "What's weather in Paris, TX?" } },
        ]),
    },
    {
      method: 'resources.read',
      disrupt: restartServer,
      input: { server: 'remote', uri: 'demo://resource/static/document/architecture.md' },
      check: (value: unknown) =>
        expect((value as { contents: ResourcePart[] }).contents).toEqual([
          expect.objectContaining({ kind: 'text', uri: 'demo://resource/static/document/architecture.md' }),
        ]),
    },
    {
      method: 'completion.complete',
      disrupt: forgetSession,
      input: {
        server: 'remote',
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'E' },
      },
      check: (value: unknown) => expect((value as CompletionResult).values).toEqual(['Engineering']),
    },
  ];

  it.each(cases)(
    '$method answers once Berth has reconnected, and the log says it reconnected',
    async ({ method, disrupt, input, check }) => {
      const h = await berth.start();
      await h.call('servers.add', { name: 'remote', config: { url: remote.url, restart: { initialDelayMs: 100 } } });
      await h.waitForEvent('servers.changed', (state) => state.name === 'remote' && state.status === 'ready');
      // The catalog's first prompts/list must not be the request that finds the loss.
      await h.call('prompts.list', {});
      const reconnects = async (): Promise<string[]> =>
        (await hostLog(h)).filter((text) =>
          /(no longer knows this session|lost the connection to).*; restart \d+ of \d+/.test(text),
        );
      const readyLines = async (): Promise<number> =>
        (await hostLog(h)).filter((text) => text.startsWith('ready over Streamable HTTP')).length;
      expect(await readyLines()).toBe(1);

      await disrupt();
      const result = await h.host.dispatch(method, input);
      // Say what the host answered instead (its code alone does not tell which state it met).
      if (!result.ok)
        throw new Error(
          `${method} failed: ${result.code} ${result.message}; states: ${JSON.stringify(h.events.filter((event) => event.topic === 'servers.changed').map((event) => (event.payload as { status: string }).status))}`,
        );
      check(result.value);
      expect(await reconnects()).toHaveLength(1);
      expect(await readyLines()).toBe(2);
    },
    60_000,
  );
});
