import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionScope, Listeners } from './connection-scope';

interface Events {
  said: (word: string) => void;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionScope', () => {
  it('disposing takes back every listener and timer it holds', () => {
    const listeners = new Listeners<Events>();
    const scope = new ConnectionScope();
    const heard: string[] = [];
    scope.add(listeners.on('said', (word) => heard.push(word)));
    let fired = false;
    scope.timeout(1_000, () => (fired = true));
    listeners.emit('said', 'before');
    scope.dispose();
    listeners.emit('said', 'after');
    vi.advanceTimersByTime(1_000);
    expect(heard).toEqual(['before']);
    expect(fired).toBe(false);
  });

  it('a timer that fired leaves the scope; one disposed on its own never fires', () => {
    const scope = new ConnectionScope();
    const fired: string[] = [];
    scope.timeout(10, () => fired.push('kept'));
    scope.timeout(10, () => fired.push('dropped')).dispose();
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['kept']);
  });

  it('what is added after disposal is disposed at once', () => {
    const listeners = new Listeners<Events>();
    const scope = new ConnectionScope();
    scope.dispose();
    const heard: string[] = [];
    scope.add(listeners.on('said', (word) => heard.push(word)));
    listeners.emit('said', 'late');
    expect(heard).toEqual([]);
  });
});

describe('Listeners', () => {
  it('a listener removed by an earlier one in the same emit is not called', () => {
    const listeners = new Listeners<Events>();
    const scope = new ConnectionScope();
    const heard: string[] = [];
    listeners.on('said', () => scope.dispose());
    scope.add(listeners.on('said', (word) => heard.push(word)));
    listeners.emit('said', 'once');
    expect(heard).toEqual([]);
  });
});
