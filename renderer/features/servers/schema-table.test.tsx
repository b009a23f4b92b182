// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { describeType, schemaRows } from './schema-model';
import { SchemaTable } from './schema-table';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to search for', minLength: 1 },
    limit: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
    mode: { type: 'string', enum: ['fast', 'thorough'] },
    color: {
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    filter: {
      type: 'object',
      description: 'Narrow the results',
      required: ['field'],
      properties: { field: { type: 'string' }, since: { type: ['string', 'null'], format: 'date-time' } },
    },
    tags: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' } } } },
  },
  required: ['query'],
};

describe('schemaRows', () => {
  it('flattens nested objects and arrays of objects with depth, required and constraints', () => {
    const rows = schemaRows(schema);
    expect(rows.map((r) => [r.path, r.depth, r.type, r.required])).toEqual([
      ['query', 0, 'string', true],
      ['limit', 0, 'integer', false],
      ['mode', 0, 'string', false],
      ['color', 0, 'string', false],
      ['filter', 0, 'object', false],
      ['filter.field', 1, 'string', true],
      ['filter.since', 1, 'string | null (date-time)', false],
      ['tags', 0, 'array of object', false],
      ['tags[].key', 1, 'string', false],
    ]);
    expect(rows[1]).toMatchObject({ defaultValue: '10', constraints: ['≥ 1', '≤ 100'] });
    expect(rows[2]!.enumValues).toEqual(['fast', 'thorough']);
    expect(rows[3]!.enumValues).toEqual(['r (Red)', 'g (Green)']);
  });

  it('copes with schemas that are not objects or have no properties', () => {
    expect(schemaRows(null)).toEqual([]);
    expect(schemaRows({ type: 'object' })).toEqual([]);
    expect(describeType({ $ref: '#/$defs/Point' })).toBe('Point');
    expect(describeType({})).toBe('any');
  });
});

describe('<SchemaTable>', () => {
  it('renders a readable properties table with a raw JSON toggle', () => {
    renderWithBerth(<SchemaTable schema={schema} label="Input" />);
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(10); // header + 9 properties
    const query = rows[1]!;
    expect(within(query).getByText('query')).toBeTruthy();
    expect(within(query).getByText('required')).toBeTruthy();
    expect(within(query).getByText('What to search for')).toBeTruthy();
    expect(within(rows[2]!).getByText('10')).toBeTruthy();
    expect(within(rows[3]!).getByText('thorough')).toBeTruthy();
    // Nested rows are indented further than their parent.
    const indent = (row: HTMLElement) => parseFloat((row.querySelector('td') as HTMLElement).style.paddingInlineStart);
    expect(indent(rows[6]!)).toBeGreaterThan(indent(rows[5]!));

    fireEvent.click(screen.getByRole('button', { name: 'Raw JSON' }));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText(/"minLength": 1/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show table' }));
    expect(screen.getByRole('table')).toBeTruthy();
  });

  it('says so when a tool takes no parameters', () => {
    renderWithBerth(<SchemaTable schema={{ type: 'object', properties: {} }} label="Input" />);
    expect(screen.getByText('No parameters.')).toBeTruthy();
  });

  it("words its headings and toggle in the person's language, the schema's own names and descriptions as they are", async () => {
    await activateLocale('ko');
    renderWithBerth(<SchemaTable schema={schema} label="입력" />);
    const headings = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headings.map((th) => th.textContent)).toEqual(['이름', '유형', '설명']);
    expect(screen.getAllByText('필수').length).toBeGreaterThan(0);
    expect(screen.getByText('What to search for')).toBeTruthy();
    expect(screen.getByRole('button', { name: '원본 JSON' })).toBeTruthy();
  });

  it('words the constraints again when the language changes', async () => {
    renderWithBerth(<SchemaTable schema={schema} label="Input" />);
    expect(screen.getByText(/min 1 chars/)).toBeTruthy();
    await act(() => activateLocale('ja'));
    expect(screen.getByText(/最小 1 文字/)).toBeTruthy();
  });
});
