import { describe, expect, it } from 'vitest';
import { declaredEvents, eventsErrorKind, EVENTS_EXTENSION } from './events-draft';

describe('the events draft, read in one place', () => {
  it('reads the capability under extensions (SEP-3415) or at capabilities.events (the design sketch)', () => {
    expect(declaredEvents({ extensions: { [EVENTS_EXTENSION]: { listChanged: true } } })).toEqual({
      listChanged: true,
    });
    expect(declaredEvents({ events: {} })).toEqual({ listChanged: false });
    expect(declaredEvents({ tools: {}, extensions: { 'io.modelcontextprotocol/skills': {} } })).toBeUndefined();
    expect(declaredEvents({ events: true })).toBeUndefined();
    expect(declaredEvents(undefined)).toBeUndefined();
  });

  it('names a server error code by its meaning', () => {
    expect(eventsErrorKind(-32011)).toBe('notFound');
    expect(eventsErrorKind(-32014)).toBe('unsupported');
    expect(eventsErrorKind(-32602)).toBeUndefined();
  });
});
