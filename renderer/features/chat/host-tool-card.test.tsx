// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithBerth as render } from '../../test-support/render-with-berth';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatToolUseBlock } from '../../../shared/domain/chat';
import { HOST_TOOL_SERVER } from '../../../shared/domain/host-tools';
import { ToolCallCard } from './tool-call-card';

const use: ChatToolUseBlock = {
  type: 'tool_use',
  id: 'tu1',
  server: HOST_TOOL_SERVER,
  tool: 'search_tools',
  apiName: 'search_tools',
  input: { query: 'read file' },
};

afterEach(cleanup);

describe('host tool card', () => {
  it('shows a call Berth answered as one line, with what the model read on demand', async () => {
    render(
      <ToolCallCard
        conversationId="c1"
        use={use}
        result={{
          type: 'tool_result',
          toolUseId: 'tu1',
          content: [{ type: 'text', text: 'files__read_file: Read a file' }],
          isError: false,
          hostSummary: 'searched tools for “read file”: 1 found',
        }}
        live={undefined}
        turnRunning={false}
      />,
    );
    const card = await screen.findByRole('article', { name: 'Berth: search_tools' });
    expect(card.textContent).toContain('Berth searched tools for “read file”: 1 found');
    // No approval: the server card's Review button and status chip are not there.
    expect(screen.queryByRole('button', { name: 'Review' })).toBeNull();
    expect(screen.queryByText('files__read_file: Read a file')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'What the model read' }));
    expect(screen.getByText('files__read_file: Read a file')).toBeTruthy();
  });

  it('says Berth is answering while the result is not there yet', async () => {
    render(<ToolCallCard conversationId="c1" use={use} result={undefined} live={undefined} turnRunning />);
    expect((await screen.findByRole('article', { name: 'Berth: search_tools' })).textContent).toContain(
      'Berth is answering search_tools…',
    );
  });

  it('heads a call of a tool nobody offered "unknown tool › name", the words apart from the name', async () => {
    const unknown: ChatToolUseBlock = { ...use, server: '', tool: 'files__gone', apiName: 'files__gone' };
    render(<ToolCallCard conversationId="c1" use={unknown} result={undefined} live={undefined} turnRunning={false} />);
    const card = await screen.findByRole('article', { name: 'Call of files__gone' });
    expect(card.querySelector('.tool-call-name')?.textContent).toBe('unknown tool › files__gone');
  });
});
