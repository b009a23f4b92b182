import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { countImages, imageOmittedNote, noImagesNotice, withoutImages } from './image-omission';

const image = {
  type: 'image' as const,
  source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' },
};

describe('images left out for a model that takes none', () => {
  it('replaces images in user messages and tool results with the note, and keeps everything else', () => {
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [{ type: 'text', text: 'Attached: a.png' }, image, { type: 'text', text: 'What is this?' }],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'snap', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            is_error: false,
            content: [{ type: 'text', text: 'Here.' }, image],
          },
        ],
      },
      { role: 'user', content: 'plain' },
    ];
    const { messages: out, omitted } = withoutImages(messages, 'Qwen');
    const note = { type: 'text', text: '[image omitted: Qwen does not take images]' };
    expect(omitted).toBe(2);
    expect(out).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Attached: a.png' }, note, { type: 'text', text: 'What is this?' }],
      },
      messages[1],
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', is_error: false, content: [{ type: 'text', text: 'Here.' }, note] },
        ],
      },
      { role: 'user', content: 'plain' },
    ]);
    // The stored shapes are not touched.
    expect(countImages(messages)).toBe(2);
    expect(countImages(out)).toBe(0);
  });

  it('says what happened in words, for one image and for several', () => {
    expect(imageOmittedNote('llama3.1:8b')).toBe('[image omitted: llama3.1:8b does not take images]');
    expect(noImagesNotice('M', 1).text).toMatch(
      /^M does not take images, so an image in this conversation was not sent to it \(it reads a note in its place\)\./,
    );
    expect(noImagesNotice('M', 3).text).toMatch(
      /^M does not take images, so 3 images in this conversation were not sent to it \(it reads a note in their place\)\./,
    );
  });
});
