// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { Tooltip } from 'radix-ui';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvEditor } from './list-editors';

afterEach(cleanup);

describe('env editor', () => {
  it('notes a variable that makes the server run other code, and leaves ordinary ones alone', () => {
    const rows = [
      { id: 1, key: 'NODE_OPTIONS', value: '--require ./hook.js', secret: false },
      { id: 2, key: 'API_URL', value: 'https://example.com', secret: false },
    ];
    const { container } = render(
      <Tooltip.Provider>
        <EnvEditor rows={rows} onChange={() => undefined} errors={{}} />
      </Tooltip.Provider>,
    );
    const notes = [...container.querySelectorAll('.field-caution')].map((note) => note.textContent);
    expect(notes).toEqual(['NODE_OPTIONS can make Node.js load any file first (--require, --import). Fine if you set it yourself; check it if you copied it from elsewhere.']);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
