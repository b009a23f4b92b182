import type { ChatToolResultBlock, ChatToolUseBlock, Conversation } from '../../../shared/domain/chat';
import { isHostToolCall } from '../../../shared/domain/host-tools';
import type { HostTool, HostToolOutcome, HostToolProvider } from '../host-tools/host-tool';
import { isCapped, modelParts } from './request-capping';
import { READ_RESULT_TOOL, readBoundChars, resultFlatText } from './result-cap';
import { parseRangeInput, readRange } from './result-range';

// The host tool that reads further ranges of a result Berth cut for the model.
// It reads only the conversation it is called in (the model's own history):
// a result id from another conversation is unknown here, like any made-up id.

/** The limit of a result of `server` saved without one, for a conversation on `model` (the host's resultLimitTokens). */
export type ResultLimitOf = (server: string, model: string) => number;

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    result_id: { type: 'string', description: 'The result_id Berth gave in the note inside the cut result.' },
    offset: { type: 'integer', minimum: 0, description: 'First character to read (0-based), with length.' },
    length: {
      type: 'integer',
      minimum: 1,
      description: 'How many characters to read (at most the bound the note says).',
    },
    start_line: { type: 'integer', minimum: 1, description: 'First line to read (1-based), instead of offset.' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line to read (inclusive).' },
  },
  required: ['result_id'],
  additionalProperties: false,
} as const;

interface Found {
  use: ChatToolUseBlock | undefined;
  result: ChatToolResultBlock;
}

function findResult(conversation: Conversation, id: string): Found | undefined {
  let use: ChatToolUseBlock | undefined;
  let result: ChatToolResultBlock | undefined;
  for (const message of conversation.messages) {
    for (const block of message.content) {
      if (block.type === 'tool_use' && block.id === id) use = block;
      else if (block.type === 'tool_result' && block.toolUseId === id) result = block;
    }
  }
  return result === undefined ? undefined : { use, result };
}

const refuse = (text: string, summary: string): HostToolOutcome => ({
  content: [{ type: 'text', text }],
  isError: true,
  summary,
});

/** The reading tool and when it is offered: in a conversation where some result reaches the model cut. */
export function createResultReading(limitOf: ResultLimitOf): HostToolProvider {
  const tool: HostTool = {
    name: READ_RESULT_TOOL,
    title: 'Read more of a cut result',
    description:
      'Read a range of a tool result that Berth cut because it was too long (the cut result holds a note with its result_id). ' +
      'Give result_id and either offset and length (characters) or start_line and end_line. Each call returns a bounded part; read only what you need.',
    inputSchema: INPUT_SCHEMA,
    run: async (input, { conversation }) => {
      const id = input.result_id;
      if (typeof id !== 'string' || id.trim() === '')
        return refuse(
          'result_id is missing: give the result_id from Berth’s note in the cut result.',
          'could not read a result: no result_id',
        );
      const found = findResult(conversation, id);
      if (
        found === undefined ||
        (found.use !== undefined && isHostToolCall(found.use) && found.result.capped === undefined)
      ) {
        return refuse(
          `There is no tool result with result_id "${id}" in this conversation. Use the result_id from Berth’s note in the cut result.`,
          `found no result "${id}"`,
        );
      }
      const range = parseRangeInput(input);
      if ('problem' in range)
        return refuse(`Cannot read that range: ${range.problem}.`, 'could not read a result: bad range');
      const server = found.use?.server ?? '';
      const limit = found.result.capped?.limitTokens ?? limitOf(server, conversation.model);
      const answer = readRange(resultFlatText(modelParts(found.result)), range, readBoundChars(limit));
      const what = found.use === undefined ? 'a result' : `the result of ${found.use.server} › ${found.use.tool}`;
      if (!answer.ok)
        return refuse(`Cannot read that range: ${answer.message}.`, `could not read ${what}: ${answer.message}`);
      return {
        content: [{ type: 'text', text: answer.text }],
        isError: false,
        summary: `read offsets ${answer.from}–${answer.to} of ${what}`,
      };
    },
  };
  return {
    id: 'results',
    names: [READ_RESULT_TOOL],
    offer: ({ conversation }) => ({ tools: anyCapped(conversation, limitOf) ? [tool] : [] }),
  };
}

/** Whether some result of the conversation reaches the model cut: only then is the reading tool offered. */
export function anyCapped(conversation: Conversation, limitOf: ResultLimitOf): boolean {
  const serverOf = new Map<string, string>();
  for (const message of conversation.messages) {
    for (const block of message.content) {
      if (block.type === 'tool_use') serverOf.set(block.id, block.server);
      else if (block.type === 'tool_result') {
        const server = serverOf.get(block.toolUseId);
        // Berth's own answers are never cut, except those carrying a server's text (a skill), capped on arrival.
        if (server === undefined || (isHostToolCall({ server }) && block.capped === undefined)) continue;
        if (isCapped(block, server, (name) => limitOf(name, conversation.model))) return true;
      }
    }
  }
  return false;
}
