import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams, ElicitRequestURLParams } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingRequestOf } from '../../shared/domain/pending';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import { ElicitationFlow, inspectElicitationUrl } from './elicitation-flow';
import type { AwaitingElicitation } from './elicitation-flow';

const form: ElicitRequestFormParams = {
  mode: 'form',
  message: 'Tell us about you',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      age: { type: 'integer', title: 'Age', minimum: 0 },
      email: { type: 'string', format: 'email' },
    },
    required: ['name'],
  },
};

const link: ElicitRequestURLParams = {
  mode: 'url',
  message: 'Sign in to continue',
  elicitationId: 'el-1',
  url: 'https://auth.example.com/login?x=1',
};

function next(pending: PendingRequests): Promise<PendingRequestOf<'elicitation'>> {
  const open = pending.list().find((r) => r.kind === 'elicitation');
  if (open !== undefined) return Promise.resolve(open as PendingRequestOf<'elicitation'>);
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === 'elicitation') {
        stop();
        resolve(change.request as PendingRequestOf<'elicitation'>);
      }
    });
  });
}

describe('ElicitationFlow: form mode', () => {
  let pending: PendingRequests;
  let flow: ElicitationFlow;
  let opened: string[];

  beforeEach(() => {
    pending = new PendingRequests();
    opened = [];
    flow = new ElicitationFlow({
      pending,
      logs: new LogCollector(),
      openExternal: async (url) => void opened.push(url),
      now: () => 5,
    });
  });

  it('shows the form, validates on the host, and sends the cleaned values', async () => {
    const result = flow.handle('srv', form, { conversationId: 'c1', toolUseId: 'tu1' });
    const prompt = await next(pending);
    expect(prompt).toMatchObject({ server: 'srv', conversationId: 'c1', toolUseId: 'tu1' });
    expect(prompt.payload).toEqual({
      mode: 'form',
      message: 'Tell us about you',
      fields: [
        { name: 'name', label: 'Name', required: true, kind: 'string' },
        { name: 'age', label: 'Age', required: false, kind: 'number', integer: true, minimum: 0 },
        { name: 'email', label: 'email', required: false, kind: 'string', format: 'email' },
      ],
    });
    expect(() =>
      pending.answer(prompt.id, { action: 'accept', content: { name: '', age: '12.5', email: 'not-an-email' } }),
    ).toThrow(
      'Fix the form: Name: Enter a value for Name: it is required; Age: Enter a whole number: 12.5 has a fraction; email: Enter an email address like name@example.com',
    );
    let refusal: unknown;
    try {
      pending.answer(prompt.id, { action: 'accept', content: { name: 'Ada', age: '12.5' } });
    } catch (error) {
      refusal = error;
    }
    // The code names the first field and its rule as facts; the dialog words them in the person's language.
    expect(refusal).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Fix the form: Age: Enter a whole number: 12.5 has a fraction',
      hostMessage: {
        code: 'pending-errors.fix-form',
        params: { field: 'Age', more: 0 },
        cause: { code: 'pending-errors.field-fraction', params: { value: '12.5' } },
      },
    });
    pending.answer(prompt.id, { action: 'accept', content: { name: 'Ada', age: '36', email: '' } });
    await expect(result).resolves.toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
  });

  it.each(['decline', 'cancel'] as const)('passes %s through', async (action) => {
    const result = flow.handle('srv', form);
    pending.answer((await next(pending)).id, { action });
    await expect(result).resolves.toEqual({ action });
  });

  it('answers cancel when the window closes or the server cancels', async () => {
    const closed = flow.handle('srv', form);
    await next(pending);
    pending.withdrawAll('window closed');
    await expect(closed).resolves.toEqual({ action: 'cancel' });

    const controller = new AbortController();
    const cancelled = flow.handle('srv', form, { signal: controller.signal });
    await next(pending);
    controller.abort();
    await expect(cancelled).resolves.toEqual({ action: 'cancel' });
  });

  it('sends an unusable schema back to the server as InvalidParams, listing the problems', async () => {
    const bad = {
      ...form,
      requestedSchema: { type: 'object', properties: { where: { type: 'object' } } },
    } as unknown as ElicitRequestFormParams;
    const error = await flow.handle('srv', bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('field \'where\': type "object" is not supported'),
    });
    expect(pending.counts().total).toBe(0);
  });
});

describe('ElicitationFlow: URL mode', () => {
  let pending: PendingRequests;
  let flow: ElicitationFlow;
  let opened: string[];
  let logs: LogCollector;

  beforeEach(() => {
    pending = new PendingRequests();
    opened = [];
    logs = new LogCollector();
    flow = new ElicitationFlow({ pending, logs, openExternal: async (url) => void opened.push(url), now: () => 5 });
  });

  it('shows URL and domain, opens the browser only after consent, then waits for completion', async () => {
    const changes: AwaitingElicitation[][] = [];
    flow.onAwaitingChange((list) => changes.push(list));
    const result = flow.handle('srv', link, { conversationId: 'c1' });
    const prompt = await next(pending);
    expect(prompt.payload).toEqual({
      mode: 'url',
      message: 'Sign in to continue',
      url: 'https://auth.example.com/login?x=1',
      domain: 'auth.example.com',
      elicitationId: 'el-1',
      warnings: [],
    });
    expect(opened).toEqual([]);
    pending.answer(prompt.id, { action: 'accept' });
    await expect(result).resolves.toEqual({ action: 'accept' });
    expect(opened).toEqual(['https://auth.example.com/login?x=1']);
    const waiting = {
      server: 'srv',
      elicitationId: 'el-1',
      url: link.url,
      domain: 'auth.example.com',
      message: 'Sign in to continue',
      since: 5,
      conversationId: 'c1',
    };
    expect(flow.awaiting()).toEqual([waiting]);

    expect(flow.complete('other', 'el-1')).toBe(false);
    expect(flow.complete('srv', 'el-1')).toBe(true);
    expect(flow.awaiting()).toEqual([]);
    expect(changes).toEqual([[waiting], []]);
  });

  it('gives a URL request without an elicitationId (2026-07-28 input_required rounds) a local id', async () => {
    const { elicitationId: _unused, ...modern } = link;
    const result = flow.handle('srv', modern as ElicitRequestURLParams, {});
    const prompt = await next(pending);
    expect(prompt.payload.mode).toBe('url');
    const localId = prompt.payload.mode === 'url' ? prompt.payload.elicitationId : '';
    expect(localId).toMatch(/^local-/);
    pending.answer(prompt.id, { action: 'accept' });
    await expect(result).resolves.toEqual({ action: 'accept' });
    expect(flow.awaiting().map((entry) => entry.elicitationId)).toEqual([localId]);
    expect(flow.dismiss('srv', localId)).toBe(true);
  });

  it('declining or cancelling never opens anything', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const result = flow.handle('srv', link);
      pending.answer((await next(pending)).id, { action });
      await expect(result).resolves.toEqual({ action });
    }
    expect(opened).toEqual([]);
    expect(flow.awaiting()).toEqual([]);
  });

  it('a completion that arrives while the prompt is still open closes it', async () => {
    const result = flow.handle('srv', link);
    await next(pending);
    expect(flow.complete('srv', 'el-1')).toBe(true);
    await expect(result).resolves.toEqual({ action: 'cancel' });
    expect(opened).toEqual([]);
  });

  it('ignores an unknown completion but logs it', () => {
    expect(flow.complete('srv', 'nope')).toBe(false);
    expect(logs.texts('srv', 'host')).toContain('completion for unknown elicitation nope ignored');
  });

  it('the person can dismiss a waiting note, and a disconnected server clears its notes', async () => {
    for (const id of ['a', 'b']) {
      const result = flow.handle('srv', { ...link, elicitationId: id });
      pending.answer((await next(pending)).id, { action: 'accept' });
      await result;
    }
    expect(flow.dismiss('srv', 'a')).toBe(true);
    expect(flow.dismiss('srv', 'a')).toBe(false);
    flow.forgetServer('srv');
    expect(flow.awaiting()).toEqual([]);
  });

  it('answers cancel and logs when the browser cannot be opened', async () => {
    const failing = new ElicitationFlow({ pending, logs, openExternal: () => Promise.reject(new Error('no browser')) });
    const result = failing.handle('srv', link);
    pending.answer((await next(pending)).id, { action: 'accept' });
    await expect(result).resolves.toEqual({ action: 'cancel' });
    expect(logs.texts('srv', 'host')).toContain(
      'could not open https://auth.example.com/login?x=1 in the browser: no browser',
    );
  });

  it('refuses links that are not http(s), before asking', async () => {
    await expect(flow.handle('srv', { ...link, url: 'javascript:alert(1)' })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: "Berth opens only http and https links; this one uses 'javascript:'",
    });
    await expect(flow.handle('srv', { ...link, url: 'file:///etc/passwd' })).rejects.toBeInstanceOf(ProtocolError);
    expect(pending.counts().total).toBe(0);
  });
});

describe('inspectElicitationUrl', () => {
  it('flags plain http, user names that disguise the host, look-alike and IP hosts', () => {
    expect(inspectElicitationUrl('http://example.com/')).toMatchObject({
      ok: true,
      warnings: ['The link is not encrypted (http, not https).'],
    });
    expect(inspectElicitationUrl('http://localhost:8080/cb')).toEqual({
      ok: true,
      url: 'http://localhost:8080/cb',
      domain: 'localhost',
      warnings: [],
    });
    expect(inspectElicitationUrl('https://paypal.com@evil.example/')).toEqual({
      ok: true,
      url: 'https://paypal.com@evil.example/',
      domain: 'evil.example',
      warnings: [
        'The link has a user name before the domain ("paypal.com@"), a trick used to disguise the real site: it goes to evil.example.',
      ],
    });
    expect(inspectElicitationUrl('https://аpple.com/')).toMatchObject({
      ok: true,
      domain: 'xn--pple-43d.com',
      warnings: [
        'The domain uses international characters (xn--pple-43d.com); check it is the site you expect, not a look-alike.',
      ],
    });
    expect(inspectElicitationUrl('https://203.0.113.7/login')).toMatchObject({
      ok: true,
      warnings: ['The link goes to a bare IP address, not a named site.'],
    });
    expect(inspectElicitationUrl('not a url')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not a valid absolute URL'),
    });
  });
});
