import { afterAll, describe, expect, it } from 'vitest';
import { bridgeError } from '../../shared/domain/bridge-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { fail } from '../../shared/result';
import { failureText } from '../i18n/host-message';
import { activateLocale } from '../i18n/i18n';
import { inPersonWords } from './person-words';

// The router's message for developers, with the first problem coded beside it (shared/domain/input-issue-words.ts).
const invalid = (message: string, words: CodedText) => fail('INVALID_INPUT', message, undefined, words.hostMessage);
const router = 'Invalid input for servers.add: config.command: Too big: expected string to have <=4096 characters';

afterAll(() => activateLocale('en'));

describe('failures in words a person can act on', () => {
  it("words a refused field from its code: the field's name and what is wrong with it", async () => {
    await activateLocale('en');
    const cases: [CodedText, string][] = [
      [
        bridgeError('bridge-errors.too-long', { field: 'command', max: 4096 }),
        'The command is too long (at most 4,096 characters).',
      ],
      [
        bridgeError('bridge-errors.too-many', { field: 'disabledTools', max: 10_000 }),
        'The disabled tools has too many entries (at most 10,000).',
      ],
      [bridgeError('bridge-errors.empty', { field: 'name' }), 'The name is empty.'],
      [
        bridgeError('bridge-errors.at-least', { field: 'timeoutMs', min: 1000 }),
        'The timeout ms must be at least 1,000.',
      ],
      [bridgeError('bridge-errors.missing', { field: 'server' }), 'The server name is missing.'],
      [bridgeError('bridge-errors.not-a-choice', { field: 'level' }), 'The level is not one of the choices offered.'],
      [bridgeError('bridge-errors.not-valid', { field: 'data' }), 'The data is not valid.'],
      [bridgeError('bridge-errors.not-valid', { field: '' }), 'What was entered is not valid.'],
      [
        bridgeError('bridge-errors.schema-words', { field: 'text', detail: 'Write a message first.' }),
        'Write a message first.',
      ],
      [
        bridgeError('bridge-errors.unknown-field', { field: '' }),
        'Berth sent something the host does not understand. This is a bug in Berth; please report it.',
      ],
    ];
    for (const [words, sentence] of cases) expect(inPersonWords(invalid(router, words)).message).toBe(sentence);
  });

  it('leaves failures without a bridge code alone', () => {
    const timeout = fail('TIMEOUT', 'The server did not answer within 60 s');
    expect(inPersonWords(timeout)).toBe(timeout);
    const uncoded = fail('INVALID_INPUT', 'Give the conversation a title');
    expect(inPersonWords(uncoded)).toBe(uncoded);
  });

  it("words the field in the person's language, and again after a switch", async () => {
    await activateLocale('zh-CN');
    const failure = inPersonWords(
      invalid(router, bridgeError('bridge-errors.too-long', { field: 'command', max: 4096 })),
    );
    expect(failure.message).toBe('“command”过长（最多 4,096 个字符）。');
    expect(failureText(invalid(router, bridgeError('bridge-errors.missing', { field: 'server' })))).toBe(
      '缺少服务器名称。',
    );
    await activateLocale('ko');
    expect(failureText(failure)).toBe('“command”: 너무 깁니다(최대 4,096자).');
    expect(failureText(invalid(router, bridgeError('bridge-errors.not-valid', { field: 'text' })))).toBe(
      '메시지: 올바르지 않은 값입니다.',
    );
  });
});
