import { describe, expect, it } from 'vitest';
import { fail } from '../../shared/result';
import { activateLocale } from '../i18n/i18n';
import { inPersonWords } from './person-words';

const invalid = (message: string, path?: string) => fail('INVALID_INPUT', message, path);

describe('failures in words a person can act on', () => {
  it('keeps the words our schemas wrote and drops the method name and the path', () => {
    expect(inPersonWords(invalid('Invalid input for chat.send: text: Write a message first', 'text')).message).toBe(
      'Write a message first.',
    );
    expect(inPersonWords(invalid('Invalid input for chat.rename: title: Give the conversation a title')).message).toBe(
      'Give the conversation a title.',
    );
  });

  it("turns zod's default messages into what is wrong with which field", () => {
    const cases: [string, string][] = [
      [
        'Invalid input for servers.add: config.command: Too big: expected string to have <=4096 characters',
        'The command is too long (at most 4,096 characters).',
      ],
      [
        'Invalid input for chat.setTools: disabledTools: Too big: expected array to have <=10000 items',
        'The disabled tools has too many entries (at most 10,000).',
      ],
      ['Invalid input for x.y: name: Too small: expected string to have >=1 characters', 'The name is empty.'],
      [
        'Invalid input for x.y: timeoutMs: Too small: expected number to be >=1000',
        'The timeout ms must be at least 1,000.',
      ],
      [
        'Invalid input for x.y: server: Invalid input: expected string, received undefined',
        'The server name is missing.',
      ],
      [
        'Invalid input for x.y: level: Invalid option: expected one of "debug"|"info"',
        'The level is not one of the choices offered.',
      ],
      ['Invalid input for x.y: attachments[0].content.data: Invalid input', 'The data is not valid.'],
      ['Invalid input for x.y: Invalid input: expected object, received string', 'What was entered is not valid.'],
      [
        'Invalid input for x.y: extra: unknown field "extra"',
        'Berth sent something the host does not understand. This is a bug in Berth; please report it.',
      ],
    ];
    for (const [message, words] of cases) expect(inPersonWords(invalid(message)).message).toBe(words);
  });

  it('joins several problems and leaves other failures alone', () => {
    expect(
      inPersonWords(
        invalid(
          'Invalid input for x.y: a: Too small: expected string to have >=1 characters; b: Pick one (and 2 more)',
        ),
      ).message,
    ).toBe('The a is empty. Pick one.');
    const timeout = fail('TIMEOUT', 'The server did not answer within 60 s');
    expect(inPersonWords(timeout)).toBe(timeout);
  });

  it("words zod's messages in the person's language, our schemas' own words as written", async () => {
    await activateLocale('zh-CN');
    expect(
      inPersonWords(
        invalid(
          'Invalid input for x.y: config.command: Too big: expected string to have <=4096 characters; ' +
            'server: Invalid input: expected string, received undefined; timeoutMs: Too small: expected number to be >=1000',
        ),
      ).message,
    ).toBe('“command”过长（最多 4,096 个字符）。缺少服务器名称。“timeout ms”不能小于 1,000。');
    await activateLocale('ko');
    expect(inPersonWords(invalid('Invalid input for x.y: a: Pick one; text: Invalid input')).message).toBe(
      'Pick one. 메시지: 올바르지 않은 값입니다.',
    );
  });
});
