import { describe, expect, it } from 'vitest';
import { createRouter } from '../app/bridge/router';
import type { Handlers } from '../shared/contract';
import { MAX_MESSAGE_CHARS } from '../shared/domain/attachment-limits';
import { createBerthStore } from '../renderer/store';
import { createFakeTransport } from '../renderer/test-support/fake-transport';

// The renderer rewrites the router's contract wording; this runs the real router and contract, so a change to
// either that the rewrite no longer understands fails here rather than in front of a person.
describe('router refusals reach the person in words', () => {
  it('a message over the limit', async () => {
    const router = createRouter({ 'chat.send': async () => ({ accepted: true as const }) } as unknown as Handlers);
    const answer = await router.dispatch('chat.send', { id: 'c1', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) });
    expect(answer.ok ? '' : answer.message).toMatch(/^Invalid input for chat\.send: text: /);
    const store = createBerthStore(createFakeTransport({ 'chat.send': () => answer as never }));
    const result = await store.getState().sendMessage('c1', 'x', 'claude-a', []);
    expect(result.ok ? '' : result.message).toBe(
      'Keep a message under 100,000 characters, or attach the long text as a file.',
    );
  });

  it('an attachment that is not what it claims', async () => {
    const router = createRouter({ 'chat.send': async () => ({ accepted: true as const }) } as unknown as Handlers);
    const answer = await router.dispatch('chat.send', {
      id: 'c1',
      text: '',
      attachments: [{ label: 'shot.png', content: { type: 'image', mimeType: 'text/html', data: 'not base64!' } }],
    });
    const store = createBerthStore(createFakeTransport({ 'chat.send': () => answer as never }));
    const result = await store.getState().sendMessage('c1', '', 'claude-a', []);
    expect(result.ok ? '' : result.message).toBe(
      'shot.png is not an image (text/html). shot.png is not valid base64 data.',
    );
  });
});
