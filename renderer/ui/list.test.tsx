// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChoiceRow, List, Row } from './list';

afterEach(cleanup);

function Fruits({ names, onOther }: { names: string[]; onOther?: (key: string) => void }) {
  const [picked, setPicked] = useState<string>();
  return (
    <List
      look="choices"
      arrowKeys
      aria-label="Fruits"
      empty={<p>No fruit yet.</p>}
      onKeyDown={(event) => onOther?.(event.key)}
    >
      {names.map((name) => (
        <ChoiceRow key={name} selected={picked === name} disabled={name === 'Plum'} onClick={() => setPicked(name)}>
          {name}
        </ChoiceRow>
      ))}
    </List>
  );
}

describe('List', () => {
  it('shows its empty state instead of an empty list, and the rows once there are some', () => {
    const { rerender } = render(<Fruits names={[]} />);
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByText('No fruit yet.')).toBeTruthy();

    rerender(<Fruits names={['Apple']} />);
    expect(screen.queryByText('No fruit yet.')).toBeNull();
    const list = screen.getByRole('list', { name: 'Fruits' });
    expect(list.className).toBe('list list-choices');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });

  it('counts a row left out by a condition as no row', () => {
    render(
      <List aria-label="Maybe" empty={<p>Nothing here.</p>}>
        {null}
        {false}
      </List>,
    );
    expect(screen.getByText('Nothing here.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('renders an empty list when it has no empty state to show', () => {
    render(<List aria-label="Nothing" />);
    expect(screen.getByRole('list', { name: 'Nothing' }).children).toHaveLength(0);
  });

  it('moves focus between the enabled rows with the arrow keys, Home and End, and stops at the ends', () => {
    render(<Fruits names={['Apple', 'Pear', 'Plum', 'Quince']} />);
    const list = screen.getByRole('list', { name: 'Fruits' });
    const button = (name: string) => screen.getByRole('button', { name });

    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(button('Apple'));
    fireEvent.keyDown(button('Apple'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(button('Pear'));
    // Plum is disabled: the next stop is Quince.
    fireEvent.keyDown(button('Pear'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(button('Quince'));
    fireEvent.keyDown(button('Quince'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(button('Quince'));
    fireEvent.keyDown(button('Quince'), { key: 'Home' });
    expect(document.activeElement).toBe(button('Apple'));
    fireEvent.keyDown(button('Apple'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(button('Apple'));
    fireEvent.keyDown(button('Apple'), { key: 'End' });
    expect(document.activeElement).toBe(button('Quince'));
  });

  it('hands every other key to its own onKeyDown, and movement keys only when it has no arrow keys', () => {
    const other = vi.fn();
    render(<Fruits names={['Apple']} onOther={other} />);
    const apple = screen.getByRole('button', { name: 'Apple' });
    fireEvent.keyDown(apple, { key: 'ArrowDown' });
    fireEvent.keyDown(apple, { key: 'Backspace' });
    expect(other.mock.calls).toEqual([['Backspace']]);

    const plain = vi.fn();
    render(
      <List look="plain" aria-label="Plain" onKeyDown={(event) => plain(event.key)}>
        <Row>
          <button type="button">Only</button>
        </Row>
      </List>,
    );
    fireEvent.keyDown(screen.getByRole('button', { name: 'Only' }), { key: 'ArrowDown' });
    expect(plain.mock.calls).toEqual([['ArrowDown']]);
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Only' }));
  });
});

describe('ChoiceRow', () => {
  it('marks the picked row as current, and only that one', () => {
    render(<Fruits names={['Apple', 'Pear']} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pear' }));
    expect(screen.getByRole('button', { name: 'Pear' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: 'Pear' }).className).toBe('list-choice selected');
    expect(screen.getByRole('button', { name: 'Apple' }).hasAttribute('aria-current')).toBe(false);
  });

  it('shows what goes under its button inside the same row', () => {
    render(
      <List look="choices" aria-label="Templates">
        <ChoiceRow rowClassName="template" aria-expanded after={<form aria-label="Fill in" />}>
          Open
        </ChoiceRow>
      </List>,
    );
    const row = screen.getByRole('listitem');
    expect(row.className).toBe('template');
    expect(within(row).getByRole('button', { name: 'Open' }).getAttribute('aria-expanded')).toBe('true');
    expect(within(row).getByRole('form', { name: 'Fill in' })).toBeTruthy();
  });
});

describe('Row', () => {
  it('is a list item with the row class, dense when asked, keeping its own class and attributes', () => {
    render(
      <List aria-label="Roots">
        <Row dense className="root-row" aria-label="site" data-root="site" />
      </List>,
    );
    const row = screen.getByRole('listitem', { name: 'site' });
    expect(row.className).toBe('list-item list-item-dense root-row');
    expect(row.dataset.root).toBe('site');
    expect(screen.getByRole('list', { name: 'Roots' }).className).toBe('list list-boxed');
  });

  it('lays cards out apart from each other', () => {
    render(
      <List look="cards" aria-label="Tools">
        <Row className="tool">echo</Row>
      </List>,
    );
    expect(screen.getByRole('list', { name: 'Tools' }).className).toBe('list list-cards');
    expect(screen.getByRole('listitem').className).toBe('list-item tool');
  });
});
