import { describe, expect, it } from 'vitest';
import type { PromptInfo } from '../../../shared/contract/prompts';
import { activateLocale } from '../../i18n/i18n';
import {
  argumentsToSend,
  completionContext,
  emptyValues,
  promptResultToDraft,
  validateArguments,
} from './prompt-form-model';

const TEAM: PromptInfo = {
  server: 'everything',
  name: 'completable-prompt',
  title: 'Team Management',
  arguments: [
    { name: 'department', title: 'Department', required: true },
    { name: 'name', required: true },
    { name: 'note', required: false },
  ],
};

describe('prompt form model', () => {
  it('starts empty and names each missing required argument', () => {
    const values = emptyValues(TEAM);
    expect(values).toEqual({ department: '', name: '', note: '' });
    expect(validateArguments(TEAM, { ...values, name: '  ' })).toEqual({
      department: 'Enter Department: this prompt needs it',
      name: 'Enter name: this prompt needs it',
    });
    expect(validateArguments(TEAM, { department: 'Sales', name: 'Eve', note: '' })).toEqual({});
  });

  it('leaves out empty optional arguments and sends context without the field being completed', () => {
    expect(argumentsToSend(TEAM, { department: 'Sales', name: 'Eve', note: '' })).toEqual({
      department: 'Sales',
      name: 'Eve',
    });
    expect(completionContext({ department: 'Sales', name: 'E', note: ' ' }, 'name')).toEqual({ department: 'Sales' });
  });

  it('puts a one-role prompt in as plain text, and labels roles when they mix', () => {
    expect(
      promptResultToDraft(TEAM, { messages: [{ role: 'user', content: { type: 'text', text: 'Promote Eve.' } }] }),
    ).toEqual({ text: 'Promote Eve.', attachments: [] });
    const mixed = promptResultToDraft(TEAM, {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hi' } },
        { role: 'assistant', content: { type: 'text', text: 'Hello' } },
      ],
    });
    expect(mixed.text).toBe('User:\nHi\n\nAssistant:\nHello');
  });

  it('turns images, audio and embedded resources into labelled attachments, and links into text', () => {
    const draft = promptResultToDraft(TEAM, {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Look:' } },
        { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'image', data: 'BBBB', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'audio', data: 'CCCC', mimeType: 'audio/wav' } },
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: 'demo://resource/1', mimeType: 'text/plain', text: 'one' } },
        },
        { role: 'user', content: { type: 'resource_link', uri: 'https://example.com', name: 'example' } },
      ],
    });
    expect(draft.text).toBe('Look:\n\n[example](https://example.com)');
    expect(
      draft.attachments.map((attachment) => [attachment.label, attachment.server, attachment.content.type]),
    ).toEqual([
      ['Team Management · image 1', 'everything', 'image'],
      ['Team Management · image 2', 'everything', 'image'],
      ['Team Management · audio 1', 'everything', 'audio'],
      ['demo://resource/1', 'everything', 'resource'],
    ]);
  });

  it("words the missing-argument message and the role labels in the person's language, the prompt's own words as written", async () => {
    await activateLocale('zh-CN');
    expect(validateArguments(TEAM, { department: '', name: 'Eve', note: '' })).toEqual({
      department: '请输入 Department：此提示词需要它',
    });
    const mixed = promptResultToDraft(TEAM, {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hi' } },
        { role: 'assistant', content: { type: 'text', text: 'Hello' } },
      ],
    });
    expect(mixed.text).toBe('用户:\nHi\n\n助手:\nHello');
  });
});
