import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, fixtureConfig, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { CompletionBroker } from '../../app/workspace/completion-broker';
import { PromptCatalogService } from '../../app/workspace/prompt-catalog';
import type { PromptCatalog } from '../../shared/contract/prompts';
import { binOf, failure } from './supervisor-harness';

describe('prompt catalog and completions against real servers (both eras)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let supervisor: ServerSupervisor;
  let catalog: PromptCatalogService;
  let broker: CompletionBroker;
  let announced: PromptCatalog[];

  beforeEach(async () => {
    dir = await tempDir();
    logs = new LogCollector();
    announced = [];
    supervisor = new ServerSupervisor({
      logs,
      stateDir: dir.path,
      onState: (state) => catalog.serverChanged(state),
      onListChanged: (server, kind) => {
        if (kind === 'prompts') catalog.promptsChanged(server);
      },
    });
    catalog = new PromptCatalogService({ servers: supervisor, onChange: (view) => announced.push(view) });
    broker = new CompletionBroker(supervisor);
  });
  afterEach(async () => {
    broker.close();
    await supervisor.shutdown();
    await dir.cleanup();
  });

  it('legacy era (server-everything): lists its prompts, fills one in, and completes the department', async () => {
    await supervisor.sync({
      everything: serverConfig({
        command: process.execPath,
        args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'],
      }),
    });
    expect(supervisor.get('everything')?.era).toBe('legacy');

    const view = await catalog.list();
    expect(view.servers).toEqual([{ name: 'everything', completions: true }]);
    const names = view.prompts.map((prompt) => prompt.name);
    expect(names).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']));
    const args = view.prompts.find((prompt) => prompt.name === 'args-prompt');
    expect(args).toMatchObject({
      server: 'everything',
      title: 'Arguments Prompt',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    });
    expect(announced.at(-1)?.prompts.length).toBe(view.prompts.length);

    const filled = await catalog.get('everything', 'args-prompt', { city: 'Paris', state: 'TX' });
    expect(filled.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "What's weather in Paris, TX?" } },
    ]);

    const department = await broker.complete({
      server: 'everything',
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(department.values).toEqual(['Engineering']);
    // The chosen department narrows the names: context carries it.
    const lead = await broker.complete({
      server: 'everything',
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(lead.values).toEqual(['Alice', 'Bob', 'Charlie']);

    const missing = await failure(catalog.get('everything', 'args-prompt', {}));
    expect(missing.code).toBe('SERVER_ERROR');
    expect(missing.message).toMatch(/server 'everything' answered prompts\/get prompt 'args-prompt' with error/);
    expect((await failure(catalog.get('nobody', 'x', {}))).code).toBe('NOT_FOUND');

    // A stopped server's prompts leave the catalog, and its calls say why.
    await supervisor.stop('everything');
    expect((await catalog.list()).prompts).toEqual([]);
    expect(announced.at(-1)?.servers).toEqual([]);
    const stopped = await failure(
      broker.complete({
        server: 'everything',
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'E' },
      }),
    );
    expect(stopped).toMatchObject({
      code: 'NOT_READY',
      message: expect.stringMatching(/server 'everything' is stopped, not ready/),
    });
  });

  it('modern era: lists, fills in, follows prompts/list_changed, and a newer keystroke cancels the older completion', async () => {
    await supervisor.sync({ modern: fixtureConfig('modern-prompts.mjs') });
    expect(supervisor.get('modern')?.era).toBe('modern');

    const view = await catalog.list();
    expect(view.prompts).toEqual([
      {
        server: 'modern',
        name: 'team',
        title: 'Team lead',
        description: 'Name a lead for a department.',
        arguments: [
          { name: 'department', description: 'The department', required: true },
          { name: 'lead', description: 'Who leads it', required: true },
        ],
      },
    ]);
    const filled = await catalog.get('modern', 'team', { department: 'Sales', lead: 'Dana' });
    expect(filled).toEqual({
      description: 'A promotion',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Make Dana the lead of Sales.' } },
        { role: 'assistant', content: { type: 'text', text: 'Noted: Dana leads Sales.' } },
      ],
    });

    // Latest wins per field: the slow request is aborted as soon as the newer one starts.
    const ref = { type: 'ref/prompt' as const, name: 'team' };
    const older = broker.complete({ server: 'modern', ref, argument: { name: 'department', value: 'slow' } });
    const newer = broker.complete({ server: 'modern', ref, argument: { name: 'department', value: 'E' } });
    expect(await newer).toMatchObject({ values: ['Engineering'], total: 1 });
    expect(await older).toEqual({ values: [], superseded: true });
    const cancelled = logs
      .for('modern', 'trace')
      .filter((entry) => entry.direction === 'out' && entry.method === 'notifications/cancelled');
    expect(cancelled).toHaveLength(1);
    // Another field is not affected by this one.
    const [department, lead] = await Promise.all([
      broker.complete({ server: 'modern', ref, argument: { name: 'department', value: 'S' } }),
      broker.complete({
        server: 'modern',
        ref,
        argument: { name: 'lead', value: '' },
        context: { arguments: { department: 'Engineering' } },
      }),
    ]);
    expect(department.values).toEqual(['Sales', 'Support']);
    expect(lead.values).toEqual(['Alice', 'Bob']);

    // The server adds a prompt: its list_changed makes the catalog re-read and announce.
    await supervisor.callTool('modern', 'add_prompt', { name: 'late-prompt' });
    const updated = await waitUntil(
      () => announced.find((entry) => entry.prompts.some((prompt) => prompt.name === 'late-prompt')),
      10_000,
      'prompts.changed with late-prompt',
    );
    expect(updated.prompts.map((prompt) => prompt.name)).toEqual(['team', 'late-prompt']);
  });
});
