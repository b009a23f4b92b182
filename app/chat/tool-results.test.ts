import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ChatToolResultBlock, McpContentBlock } from '../../shared/domain/chat';
import {
  DENIED_TEXT,
  NOT_ASKED_TEXT,
  base64Bytes,
  editedArgumentsText,
  outcomeFromCallToolResult,
  toAnthropicToolResult,
} from './tool-results';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function result(content: McpContentBlock[], extra: Partial<ChatToolResultBlock> = {}): ChatToolResultBlock {
  return { type: 'tool_result', toolUseId: 'toolu_1', content, isError: false, ...extra };
}

describe('MCP tool results → Anthropic tool_result', () => {
  it('text stays text', () => {
    expect(toAnthropicToolResult(result([{ type: 'text', text: 'hello' }]))).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: 'hello' }],
    });
  });

  it('a supported image becomes an image block with base64 data and media type', () => {
    const mapped = toAnthropicToolResult(result([{ type: 'image', data: PNG_1PX, mimeType: 'image/png' }]));
    expect(mapped.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } },
    ]);
  });

  it('an image type the API cannot take, or a huge image, becomes a note with type and size', () => {
    const svgText = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const svg = Buffer.from(svgText).toString('base64');
    const [note] = toAnthropicToolResult(result([{ type: 'image', data: svg, mimeType: 'image/svg+xml' }])).content as [
      { type: string; text: string },
    ];
    expect(note.type).toBe('text');
    expect(note.text).toContain('image/svg+xml');
    expect(note.text).toContain(`${svgText.length} B`);
    const huge = 'A'.repeat(8 * 1024 * 1024);
    const [big] = toAnthropicToolResult(result([{ type: 'image', data: huge, mimeType: 'image/jpeg' }])).content as [
      { type: string; text: string },
    ];
    expect(big).toMatchObject({ type: 'text' });
    expect(big.text).toMatch(/6\.0 MB\. Too large/);
  });

  it('audio becomes a text note with the mime type and size (the API has no audio input)', () => {
    const wav = Buffer.alloc(3000).toString('base64');
    const mapped = toAnthropicToolResult(result([{ type: 'audio', data: wav, mimeType: 'audio/wav' }]));
    expect(mapped.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[Audio: audio\/wav, 2\.9 KB\. The model cannot hear audio/) },
    ]);
  });

  it('an embedded text resource becomes text with its uri; a blob becomes a note, an image or a PDF document', () => {
    const mapped = toAnthropicToolResult(
      result([
        { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } },
        {
          type: 'resource',
          resource: {
            uri: 'file:///data.bin',
            mimeType: 'application/octet-stream',
            blob: Buffer.alloc(10).toString('base64'),
          },
        },
        { type: 'resource', resource: { uri: 'file:///dot.png', mimeType: 'image/png', blob: PNG_1PX } },
        { type: 'resource', resource: { uri: 'file:///doc.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
      ]),
    );
    expect(mapped.content).toEqual([
      { type: 'text', text: 'Resource file:///notes.md (text/markdown):\n# Notes' },
      {
        type: 'text',
        text: '[Binary resource file:///data.bin: application/octet-stream, 10 B. Its content cannot be shown to the model.]',
      },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'file:///doc.pdf',
      },
    ]);
  });

  it('a resource link becomes text with the name, link, type, size and description', () => {
    const mapped = toAnthropicToolResult(
      result([
        {
          type: 'resource_link',
          uri: 'file:///a.txt',
          name: 'a.txt',
          title: 'File A',
          mimeType: 'text/plain',
          size: 2048,
          description: 'The first file',
        },
        { type: 'resource_link', uri: 'https://example.com/b', name: 'b' },
      ]),
    );
    expect(mapped.content).toEqual([
      { type: 'text', text: 'Resource link: File A (a.txt) <file:///a.txt> [text/plain, 2.0 KB]\nThe first file' },
      { type: 'text', text: 'Resource link: b <https://example.com/b>' },
    ]);
  });

  it('structuredContent is added as JSON unless a text block already carries the same JSON', () => {
    const structured = { temperature: 21.5, unit: 'C' };
    const alone = toAnthropicToolResult(result([], { structuredContent: structured }));
    expect(alone.content).toEqual([{ type: 'text', text: '{"temperature":21.5,"unit":"C"}' }]);
    const mirrored = toAnthropicToolResult(
      result([{ type: 'text', text: '{ "unit": "C", "temperature": 21.5 }' }], { structuredContent: structured }),
    );
    expect(mirrored.content).toEqual([{ type: 'text', text: '{ "unit": "C", "temperature": 21.5 }' }]);
    const differentText = toAnthropicToolResult(
      result([{ type: 'text', text: 'It is warm' }], { structuredContent: structured }),
    );
    expect(differentText.content).toHaveLength(2);
  });

  it('structuredContent that wraps the text (server-filesystem) or is the JSON of one field (server-memory) is not sent again', () => {
    const file = Array.from({ length: 400 }, (_, index) => `line ${index + 1} of the file`).join('\n');
    const read = toAnthropicToolResult(
      result([{ type: 'text', text: file }], { structuredContent: { content: file } }),
    );
    expect(read.content).toEqual([{ type: 'text', text: file }]);
    const entities = [{ name: 'Ann', entityType: 'person', observations: ['likes "quotes"'] }];
    const created = toAnthropicToolResult(
      result([{ type: 'text', text: JSON.stringify(entities, null, 2) }], { structuredContent: { entities } }),
    );
    expect(created.content).toEqual([{ type: 'text', text: JSON.stringify(entities, null, 2) }]);
    const image = { type: 'image' as const, data: PNG_1PX, mimeType: 'image/png' };
    const media = toAnthropicToolResult(result([image], { structuredContent: { content: [image] } }));
    expect(media.content).toHaveLength(1);
  });

  it('only the fields of structuredContent the text lacks are added, named as such; a short string is not found by chance', () => {
    const deleted = toAnthropicToolResult(
      result([{ type: 'text', text: 'Entities deleted successfully' }], {
        structuredContent: { success: true, message: 'Entities deleted successfully' },
      }),
    );
    expect(deleted.content).toEqual([
      { type: 'text', text: 'Entities deleted successfully' },
      { type: 'text', text: 'Structured content (its other fields are in the text above): {"success":true}' },
    ]);
    const unit = toAnthropicToolResult(
      result([{ type: 'text', text: 'Celsius is the unit' }], { structuredContent: { unit: 'C', temperature: 21.5 } }),
    );
    expect(unit.content).toEqual([
      { type: 'text', text: 'Celsius is the unit' },
      { type: 'text', text: '{"unit":"C","temperature":21.5}' },
    ]);
  });

  it('isError becomes is_error: true; an empty error still says something', () => {
    const mapped = toAnthropicToolResult(result([{ type: 'text', text: 'boom' }], { isError: true }));
    expect(mapped).toMatchObject({ is_error: true, content: [{ type: 'text', text: 'boom' }] });
    expect(toAnthropicToolResult(result([], { isError: true })).content).toEqual([
      { type: 'text', text: 'The tool failed without saying why.' },
    ]);
    expect(toAnthropicToolResult(result([])).content).toEqual([
      { type: 'text', text: 'The tool returned no content.' },
    ]);
  });

  it('a denial tells the model, with the reason when there is one', () => {
    expect(toAnthropicToolResult(result([], { isError: true, denied: { reason: 'not on prod' } }))).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
      content: [{ type: 'text', text: `${DENIED_TEXT}. Reason: not on prod` }],
    });
    expect(toAnthropicToolResult(result([], { isError: true, denied: {} })).content).toEqual([
      { type: 'text', text: `${DENIED_TEXT}.` },
    ]);
    // Berth withdrew the question (it quit, its window closed): the model must not read it as the user's no.
    expect(
      toAnthropicToolResult(result([], { isError: true, denied: { reason: 'Berth quit', byHost: true } })).content,
    ).toEqual([{ type: 'text', text: `${NOT_ASKED_TEXT}: Berth quit.` }]);
  });

  it('arguments the person edited are told to the model first, with the arguments that were used', () => {
    const mapped = toAnthropicToolResult(
      result([{ type: 'text', text: '3 rows' }], { sentInput: { table: 'staging', limit: 3 } }),
    );
    expect(mapped.content).toEqual([
      {
        type: 'text',
        text: 'The user edited the arguments before this tool call ran, so the result below is for these arguments, not the ones you wrote:\n{"table":"staging","limit":3}',
      },
      { type: 'text', text: '3 rows' },
    ]);
    expect(editedArgumentsText({ a: 1 })).toContain('{"a":1}');
    // An edited call that failed, or returned nothing, still says what ran.
    expect(toAnthropicToolResult(result([], { isError: true, sentInput: { a: 1 } })).content).toEqual([
      { type: 'text', text: editedArgumentsText({ a: 1 }) },
      { type: 'text', text: 'The tool failed without saying why.' },
    ]);
    expect(toAnthropicToolResult(result([{ type: 'text', text: 'x' }])).content).toEqual([{ type: 'text', text: 'x' }]);
  });
});

describe('outcomeFromCallToolResult', () => {
  it('keeps known blocks with their annotations, notes unknown ones, and copies structuredContent and isError', () => {
    const answer = {
      content: [
        { type: 'text', text: 'ok', annotations: { audience: ['user'] } },
        { type: 'hologram', data: 'x' },
      ],
      structuredContent: { n: 1 },
      isError: true,
    } as unknown as CallToolResult;
    expect(outcomeFromCallToolResult(answer)).toEqual({
      content: [
        { type: 'text', text: 'ok', annotations: { audience: ['user'] } },
        { type: 'text', text: "[The tool returned a 'hologram' content block that Berth cannot show to the model]" },
      ],
      structuredContent: { n: 1 },
      isError: true,
    });
  });

  it('measures base64 without decoding it', () => {
    expect(base64Bytes(Buffer.alloc(5).toString('base64'))).toBe(5);
    expect(base64Bytes(Buffer.alloc(6).toString('base64'))).toBe(6);
    expect(base64Bytes('')).toBe(0);
  });
});
