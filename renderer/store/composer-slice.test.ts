import { describe, expect, it } from 'vitest';
import type { ChatAttachment } from '../../shared/domain/chat';
import { ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { composerDraft } from './composer-slice';
import { createBerthStore } from './create-store';

const readme: ChatAttachment = {
  server: 'docs',
  label: 'README.md',
  content: { type: 'resource', resource: { uri: 'file:///r/README.md', text: '# Hi' } },
};
const image: ChatAttachment = { label: 'chart', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } };

describe('composer drafts', () => {
  it('keeps one draft per conversation; inserted text goes after what was typed, separated by a blank line', () => {
    const store = createBerthStore(createFakeTransport());
    const s = () => store.getState();
    s().setComposerText('c1', 'My question');
    s().insertIntoComposer('c1', 'From the prompt');
    s().insertIntoComposer('c2', 'Only text');
    expect(composerDraft(s().composerDrafts, 'c1').text).toBe('My question\n\nFrom the prompt');
    expect(composerDraft(s().composerDrafts, 'c2').text).toBe('Only text');
    expect(composerDraft(s().composerDrafts, 'c3')).toEqual({ text: '', attachments: [] });
  });

  it('adds and removes attachments by position, and clears a draft once sent', () => {
    const store = createBerthStore(createFakeTransport());
    const s = () => store.getState();
    s().attachToComposer('c1', [readme]);
    s().attachToComposer('c1', [image, readme]);
    s().removeComposerAttachment('c1', 1);
    expect(composerDraft(s().composerDrafts, 'c1').attachments).toEqual([readme, readme]);
    s().clearComposer('c1');
    expect(s().composerDrafts).toEqual({});
  });

  it('sends attachments with the message, and leaves them out when there are none', async () => {
    const fake = createFakeTransport({ 'chat.send': async () => ok({ accepted: true as const }) });
    const store = createBerthStore(fake);
    await store.getState().sendMessage('c1', 'Look', undefined, [readme]);
    await store.getState().sendMessage('c1', 'Plain', 'claude-x', []);
    expect(fake.calls.filter((c) => c.method === 'chat.send').map((c) => c.input)).toEqual([
      { id: 'c1', text: 'Look', attachments: [readme] },
      { id: 'c1', text: 'Plain', model: 'claude-x' },
    ]);
  });
});
