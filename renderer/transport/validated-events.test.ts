import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MethodName, TopicName } from '../../shared/contract';
import { ok } from '../../shared/result';
import { alwaysOpenMonitor, type RendererTransport } from './connection';
import { withValidatedEvents } from './index';
import { checkTopicPayload } from './topic-check';
import type { TopicChecker } from './validated-events';

/** The smallest transport that lets a test push raw event payloads and see what reached it, in order. */
function rawTransport() {
  const listeners = new Map<string, (payload: unknown) => void>();
  const log: string[] = [];
  const transport: RendererTransport = {
    connection: alwaysOpenMonitor(),
    call: (method: MethodName) => {
      log.push(`call ${method}`);
      return Promise.resolve(ok(undefined as never));
    },
    on: (topic, listener) => {
      log.push(`on ${topic}`);
      listeners.set(topic, listener as (payload: unknown) => void);
      return () => {
        log.push(`off ${topic}`);
        listeners.delete(topic);
      };
    },
    close: () => undefined,
  };
  return { transport, log, emit: (topic: TopicName, payload: unknown) => listeners.get(topic)?.(payload) };
}

/** A checker whose loading the test finishes (or fails) by hand. */
function deferredChecker() {
  let finish!: (checker: TopicChecker) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<TopicChecker>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { load: () => promise, finish: () => finish(checkTopicPayload), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.restoreAllMocks());

describe('withValidatedEvents', () => {
  it('passes payloads that match the topic schema', async () => {
    const { transport, emit } = rawTransport();
    const seen: unknown[] = [];
    withValidatedEvents(transport).on('servers.removed', (p) => seen.push(p));
    await settle(); // the schemas load as their own chunk
    emit('servers.removed', { name: 'x' });
    expect(seen).toEqual([{ name: 'x' }]);
  });

  it('drops and reports payloads that do not match', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { transport, emit } = rawTransport();
    const seen: unknown[] = [];
    withValidatedEvents(transport).on('logs.appended', (p) => seen.push(p));
    await settle();
    emit('logs.appended', { entries: [{ seq: 'one' }] });
    expect(seen).toEqual([]);
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0]![0])).toContain('logs.appended');
    expect(String(errors.mock.calls[0]![0])).toContain('entries.0');
  });

  it('holds subscriptions and calls until the schemas are in, then passes them on in the order they were made', async () => {
    const { transport, log, emit } = rawTransport();
    const checker = deferredChecker();
    const validated = withValidatedEvents(transport, checker.load);
    const seen: unknown[] = [];
    validated.on('servers.removed', (p) => seen.push(p));
    const reply = validated.call('app.info', {});
    validated.on('logs.cleared', () => undefined);
    const cancelled = validated.on('settings.changed', () => undefined);
    cancelled();
    await settle();
    // Nothing reached the host or a store before the checks could run.
    expect(log).toEqual([]);
    emit('servers.removed', { name: 'early' });
    checker.finish();
    await expect(reply).resolves.toMatchObject({ ok: true });
    expect(log).toEqual(['on servers.removed', 'call app.info', 'on logs.cleared']);
    emit('servers.removed', { name: 'x' });
    emit('servers.removed', { name: 7 });
    expect(seen).toEqual([{ name: 'x' }]);
  });

  it('delivers no event and fails every call with the reason when the schemas cannot load', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { transport, log } = rawTransport();
    const checker = deferredChecker();
    const validated = withValidatedEvents(transport, checker.load);
    validated.on('servers.removed', () => undefined);
    const early = validated.call('app.info', {});
    checker.fail(new Error('chunk 404'));
    await expect(early).resolves.toMatchObject({
      ok: false,
      code: 'INTERNAL',
      message: expect.stringMatching(/could not load its event checks \(chunk 404\)/),
    });
    await expect(validated.call('app.info', {})).resolves.toMatchObject({
      ok: false,
      message: expect.stringMatching(/reload the page/),
    });
    expect(log).toEqual([]);
    expect(errors).toHaveBeenCalled();
  });
});

describe('checkTopicPayload', () => {
  it('refuses a topic this version does not know', () => {
    expect(checkTopicPayload('no.such.topic' as TopicName, {})).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/no such topic/),
    });
  });
});
