// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { Tooltip } from 'radix-ui';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArgsEditor, EnvEditor } from './list-editors';
import type { ArgRow, EnvRow } from './server-form-model';

afterEach(cleanup);

describe('env editor', () => {
  it('notes a variable that makes the server run other code, and leaves ordinary ones alone', () => {
    const rows = [
      { id: 1, key: 'NODE_OPTIONS', value: '--require ./hook.js', secret: false },
      { id: 2, key: 'API_URL', value: 'https://example.com', secret: false },
    ];
    const { container } = renderWithBerth(
      <Tooltip.Provider>
        <EnvEditor rows={rows} onChange={() => undefined} errors={{}} />
      </Tooltip.Provider>,
    );
    const notes = [...container.querySelectorAll('.field-caution')].map((note) => note.textContent);
    expect(notes).toEqual([
      'NODE_OPTIONS can make Node.js load any file first (--require, --import). Fine if you set it yourself; check it if you copied it from elsewhere.',
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

function Args({ initial }: { initial: ArgRow[] }) {
  const [rows, setRows] = useState(initial);
  return (
    <Tooltip.Provider>
      <ArgsEditor rows={rows} onChange={setRows} errors={{}} />
    </Tooltip.Provider>
  );
}

function Env({ initial }: { initial: EnvRow[] }) {
  const [rows, setRows] = useState(initial);
  return (
    <Tooltip.Provider>
      <EnvEditor rows={rows} onChange={setRows} errors={{}} />
    </Tooltip.Provider>
  );
}

const values = () =>
  screen.getAllByRole('textbox', { name: /^Argument \d+$/ }).map((input) => (input as HTMLInputElement).value);

describe('keyboard focus in the list editors', () => {
  it('Enter on an argument moves to the new row, so what is typed next is a new argument', () => {
    renderWithBerth(
      <Args
        initial={[
          { id: 9001, value: '-y' },
          { id: 9002, value: '--port' },
        ]}
      />,
    );
    const first = screen.getByRole('textbox', { name: 'Argument 1' });
    first.focus();
    fireEvent.keyDown(first, { key: 'Enter' });
    const inserted = screen.getByRole('textbox', { name: 'Argument 2' });
    expect(document.activeElement).toBe(inserted);
    fireEvent.change(document.activeElement!, { target: { value: 'pkg' } });
    expect(values()).toEqual(['-y', 'pkg', '--port']);
  });

  it('"Add argument" focuses the new last row; removing a row focuses its neighbour, the last one the add button', () => {
    renderWithBerth(<Args initial={[{ id: 9011, value: 'a' }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add argument' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Argument 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove argument 2' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Argument 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove argument 1' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add argument' }));
  });

  it('"Add variable" focuses the new variable’s name', () => {
    renderWithBerth(<Env initial={[]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Variable 1 name' }));
  });
});
