// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { comboboxOptionId, useComboboxMenu } from './use-combobox-menu';

afterEach(cleanup);

const WORDS = ['alpha', 'beta', 'gamma'];

/** A text box whose `/word` opens a menu of WORDS; what the menu did not use is logged as "passed". */
function Box() {
  const [text, setText] = useState('');
  const [log, setLog] = useState<string[]>([]);
  const query = text.startsWith('/') ? text.slice(1) : undefined;
  const menu = useComboboxMenu({ wanted: query !== undefined, text, query });
  const matches = query === undefined ? [] : WORDS.filter((word) => word.includes(query));
  return (
    <>
      <input
        aria-label="Message"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (!menu.handleKeyDown(event, matches, (word) => setLog((l) => [...l, `chose ${word}`])))
            setLog((l) => [...l, `passed ${event.key}`]);
        }}
        {...menu.inputProps(matches)}
      />
      {menu.open ? (
        <ul id={menu.listboxId} role="listbox">
          {matches.map((word, index) => (
            <li
              key={word}
              id={comboboxOptionId(menu.listboxId, index)}
              role="option"
              aria-selected={index === menu.highlighted}
            >
              {word}
            </li>
          ))}
        </ul>
      ) : null}
      <p data-testid="log">{log.join(', ')}</p>
    </>
  );
}

const box = () => screen.getByRole('textbox', { name: 'Message' });
const type = (text: string) => fireEvent.change(screen.getByLabelText('Message'), { target: { value: text } });
const key = (k: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(screen.getByLabelText('Message'), { key: k, ...init });
const activeOption = () => {
  const id = screen.getByRole('combobox').getAttribute('aria-activedescendant');
  return id === null ? undefined : document.getElementById(id)?.textContent;
};
const log = () => screen.getByTestId('log').textContent;

describe('useComboboxMenu', () => {
  it('is a plain text box until the menu is wanted, then a combobox that controls the list', () => {
    render(<Box />);
    expect(box().getAttribute('role')).toBeNull();
    key('Enter');
    expect(log()).toBe('passed Enter');
    type('/');
    const combobox = screen.getByRole('combobox');
    expect(combobox.getAttribute('aria-expanded')).toBe('true');
    expect(combobox.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(activeOption()).toBe('alpha');
  });

  it('moves the highlight with the arrows (wrapping) and chooses with Enter or Tab, not Shift+Enter', () => {
    render(<Box />);
    type('/');
    key('ArrowUp');
    expect(activeOption()).toBe('gamma');
    key('ArrowDown');
    key('ArrowDown');
    expect(activeOption()).toBe('beta');
    key('Enter', { shiftKey: true });
    key('Tab');
    expect(log()).toBe('passed Enter, chose beta');
  });

  it('starts a new query at the best match, and lets Enter through when nothing matches', () => {
    render(<Box />);
    type('/');
    key('ArrowDown');
    type('/a');
    expect(activeOption()).toBe('alpha');
    type('/zzz');
    expect(activeOption()).toBeUndefined();
    key('Enter');
    expect(log()).toBe('passed Enter');
  });

  it('Escape closes the menu until the text changes', () => {
    render(<Box />);
    type('/b');
    key('Escape');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box().getAttribute('role')).toBeNull();
    key('ArrowDown');
    expect(log()).toBe('passed ArrowDown');
    type('/be');
    expect(screen.getByRole('listbox')).toBeDefined();
  });
});
