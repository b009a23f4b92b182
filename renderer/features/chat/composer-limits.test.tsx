// @vitest-environment jsdom
import { act, cleanup, createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENTS } from '../../../shared/contract/chat';
import { MAX_MESSAGE_CHARS, MAX_TEXT_ATTACHMENT_BYTES } from '../../../shared/domain/attachment-limits';
import type { ChatAttachment } from '../../../shared/domain/chat';
import { ok } from '../../../shared/result';
import { composerDraft } from '../../store';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { fileToAttachment, fitAttachments } from './dropped-files';
import { activateLocale } from '../../i18n/i18n';
import { LONG_PASTE_CHARS } from './message-limits';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

function mount() {
  const view = renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () =>
        ok({
          apiKey: { source: 'stored', hint: '…wxyz' },
          models: [{ id: 'claude-a', label: 'Claude A' }],
          defaultModel: 'claude-a',
        }),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'prompts.list': () => ok({ servers: [], problems: [], prompts: [] }),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Notes', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 0 }]),
      'chat.get': () =>
        ok({
          id: 'c1',
          title: 'Notes',
          createdAt: 1,
          updatedAt: 2,
          model: 'claude-a',
          messages: [],
          disabledServers: [],
          disabledTools: [],
        }),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      'chat.send': () => ok({ accepted: true as const }),
    },
    prepare: (store) => store.getState().showView('chat'),
  });
  const attachments = () => composerDraft(view.store.getState().composerDrafts, 'c1').attachments;
  return { ...view, attachments };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

function drop(target: Element, files: File[]) {
  const dataTransfer = { types: ['Files'], files, dropEffect: 'none' };
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
}

function paste(box: HTMLTextAreaElement, text: string) {
  const event = createEvent.paste(box, {
    clipboardData: { getData: (type: string) => (type === 'text/plain' ? text : '') },
  });
  fireEvent(box, event);
  return event;
}

describe('dropping files on the composer', () => {
  it('attaches text files as text and images as image blocks', async () => {
    const { attachments } = mount();
    const composer = await screen.findByRole('group', { name: 'Your message' });
    drop(composer, [
      new File(['# Plan\nship it'], 'plan.md', { type: 'text/markdown' }),
      new File(['let x = 1;'], 'main.rs'),
      new File([PNG], 'dot.png', { type: 'image/png' }),
    ]);
    const chips = await screen.findByRole('list', { name: 'Attachments' });
    await waitFor(() => expect(within(chips).getAllByRole('listitem')).toHaveLength(3));
    expect(attachments()).toEqual([
      {
        label: 'plan.md',
        content: {
          type: 'resource',
          resource: { uri: 'file:///plan.md', mimeType: 'text/markdown', text: '# Plan\nship it' },
        },
      },
      {
        label: 'main.rs',
        content: { type: 'resource', resource: { uri: 'file:///main.rs', mimeType: 'text/plain', text: 'let x = 1;' } },
      },
      { label: 'dot.png', content: { type: 'image', mimeType: 'image/png', data: btoa(String.fromCharCode(...PNG)) } },
    ]);
    expect(chips.textContent).toContain('Image');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses binary, too big and unsupported image files with the reason, and keeps the rest', async () => {
    const { attachments } = mount();
    const composer = await screen.findByRole('group', { name: 'Your message' });
    drop(composer, [
      new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2])], 'tool.bin'),
      new File(['x'.repeat(MAX_TEXT_ATTACHMENT_BYTES + 100 * 1024)], 'huge.log', { type: 'text/plain' }),
      new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }),
      new File(['fine'], 'ok.txt', { type: 'text/plain' }),
    ]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('3 files were not attached');
    expect(alert.textContent).toContain(
      'tool.bin is not a text file or an image; only text files and PNG, JPEG, GIF or WebP images can be attached.',
    );
    expect(alert.textContent).toContain(
      'huge.log is 612.0 KB; text files up to 512.0 KB can be attached. Attach a smaller part of it.',
    );
    expect(alert.textContent).toContain(
      'logo.svg (image/svg+xml) cannot be attached: the model takes PNG, JPEG, GIF and WebP images.',
    );
    await waitFor(() => expect(attachments().map((a) => a.label)).toEqual(['ok.txt']));
    fireEvent.click(within(alert).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses what would break the per-message limits', async () => {
    const text = (label: string): ChatAttachment => ({
      label,
      content: { type: 'resource', resource: { uri: `file:///${label}`, text: 'x' } },
    });
    const full = Array.from({ length: MAX_ATTACHMENTS }, (_, i) => text(`f${i}`));
    const fitted = fitAttachments(full, [await fileToAttachment(new File(['y'], 'one-more.txt'))]);
    expect(fitted.accepted).toEqual([]);
    expect(fitted.refused).toEqual([
      {
        name: 'one-more.txt',
        reason: `A message holds at most ${MAX_ATTACHMENTS} attachments; send this one with the next message.`,
      },
    ]);
  });
});

describe('refusals in the person’s language', () => {
  it('says why a file was not attached in the active language, its name and sizes as facts', async () => {
    await activateLocale('zh-CN');
    expect(await fileToAttachment(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }))).toEqual({
      ok: false,
      name: 'logo.svg',
      reason: '无法附加 logo.svg（image/svg+xml）：模型只接受 PNG、JPEG、GIF 和 WebP 图片。',
    });
    const huge = new File(['x'.repeat(MAX_TEXT_ATTACHMENT_BYTES + 100 * 1024)], 'huge.log', { type: 'text/plain' });
    expect(await fileToAttachment(huge)).toMatchObject({
      reason: 'huge.log 大小为 612.0 KB；只能附加不超过 512.0 KB 的文本文件。请附加其中较小的一部分。',
    });
    await activateLocale('ja');
    const text = (label: string): ChatAttachment => ({
      label,
      content: { type: 'resource', resource: { uri: `file:///${label}`, text: 'x' } },
    });
    const full = Array.from({ length: MAX_ATTACHMENTS }, (_, i) => text(`f${i}`));
    expect(fitAttachments(full, [await fileToAttachment(new File(['y'], 'one-more.txt'))]).refused).toEqual([
      {
        name: 'one-more.txt',
        reason: `1 つのメッセージに添付できるのは ${MAX_ATTACHMENTS} 件までです。これは次のメッセージと一緒に送ってください。`,
      },
    ]);
  });
});

describe('message limits in the composer', () => {
  it('shows a counter near the limit, and past it says what to do and holds Send back', async () => {
    const { attachments, transport } = mount();
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'a'.repeat(1_000) } });
    expect(screen.queryByText(/characters/)).toBeNull();
    fireEvent.change(box, { target: { value: 'a'.repeat(MAX_MESSAGE_CHARS - 10_000) } });
    expect(screen.getByText('90,000 / 100,000 characters')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(false);

    fireEvent.change(box, { target: { value: 'a'.repeat(MAX_MESSAGE_CHARS + 5) } });
    expect(screen.getByText('100,005 / 100,000 characters').className).toContain('composer-counter-over');
    expect(
      (
        await screen.findByText(
          '5 characters too many to send (a message holds 100,000). Shorten the message, or attach the text as a file.',
        )
      ).closest('[role="status"]'),
    ).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(transport.calls.some((call) => call.method === 'chat.send')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Attach the text as a file' }));
    // The file reading code loads on first use.
    await waitFor(() => expect(box.value).toBe(''));
    expect(attachments()).toEqual([
      {
        label: 'Message text',
        content: {
          type: 'resource',
          resource: {
            uri: 'file:///Message%20text.txt',
            mimeType: 'text/plain',
            text: 'a'.repeat(MAX_MESSAGE_CHARS + 5),
          },
        },
      },
    ]);
  });

  it('holds back a paste that would not fit and offers it as an attachment', async () => {
    const { attachments } = mount();
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Look at this: ' } });
    const event = paste(box, 'b'.repeat(MAX_MESSAGE_CHARS));
    expect(event.defaultPrevented).toBe(true);
    const offer = await screen.findByRole('alert');
    expect(offer.textContent).toContain(
      'The pasted text has 100,000 characters, more than a message holds (100,000). Attach it as a text file instead?',
    );
    fireEvent.click(within(offer).getByRole('button', { name: 'Attach as a text file' }));
    await waitFor(() => expect(attachments().map((a) => a.label)).toEqual(['Pasted text']));
    expect(box.value).toBe('Look at this: ');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('lets a long paste in, then offers to move it into an attachment', async () => {
    const { attachments } = mount();
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Before ' } });
    const pasted = 'c'.repeat(LONG_PASTE_CHARS);
    const event = paste(box, pasted);
    expect(event.defaultPrevented).toBe(false);
    // The browser inserts the paste; jsdom does not, so the test does what it would.
    act(() => {
      fireEvent.change(box, { target: { value: `Before ${pasted}` } });
    });
    const offer = await screen.findByRole('alert');
    expect(offer.textContent).toContain('You pasted 20,000 characters.');
    fireEvent.click(within(offer).getByRole('button', { name: 'Attach as a text file' }));
    await waitFor(() => expect(box.value).toBe('Before '));
    expect(attachments()).toEqual([
      {
        label: 'Pasted text',
        content: {
          type: 'resource',
          resource: { uri: 'file:///Pasted%20text.txt', mimeType: 'text/plain', text: pasted },
        },
      },
    ]);

    // "Keep it in the message" leaves the text as pasted.
    paste(box, pasted);
    act(() => {
      fireEvent.change(box, { target: { value: `Before ${pasted}` } });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Keep it in the message' }));
    expect(box.value).toBe(`Before ${pasted}`);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says why a file was refused in the person's language, its name as it is", async () => {
    await activateLocale('ko');
    const svg = await fileToAttachment(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(svg).toMatchObject({
      ok: false,
      reason: 'logo.svg(image/svg+xml)은(는) 첨부할 수 없습니다. 모델은 PNG, JPEG, GIF, WebP 이미지만 받습니다.',
    });
  });
});
