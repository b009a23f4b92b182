import { useMemo, useState } from 'react';
import { Button } from '../../ui/controls';
import { schemaRows } from './schema-model';

/** A tool's input schema as a properties table, with the raw JSON one click away. */
export function SchemaTable({ schema, label }: { schema: Record<string, unknown>; label: string }) {
  const rows = useMemo(() => schemaRows(schema), [schema]);
  const [raw, setRaw] = useState(false);
  return (
    <div className="schema">
      <div className="schema-head">
        <span className="schema-title">{label}</span>
        <Button size="sm" variant="ghost" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
          {raw ? 'Show table' : 'Raw JSON'}
        </Button>
      </div>
      {raw ? (
        <pre className="code-block">{JSON.stringify(schema, null, 2)}</pre>
      ) : rows.length === 0 ? (
        <p className="muted small">No parameters.</p>
      ) : (
        <table className="schema-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.path}>
                <td className="schema-name" style={{ paddingInlineStart: `${0.6 + row.depth * 1.1}rem` }}>
                  {row.depth > 0 ? (
                    <span className="schema-nest" aria-hidden="true">
                      └{' '}
                    </span>
                  ) : null}
                  <code>{row.name}</code>
                  {row.required ? (
                    <span className="schema-required" title="Required">
                      required
                    </span>
                  ) : null}
                </td>
                <td className="schema-type">
                  <code>{row.type}</code>
                </td>
                <td className="schema-desc">
                  {row.description ? <div>{row.description}</div> : null}
                  {row.enumValues ? (
                    <div className="schema-meta">
                      One of:{' '}
                      {row.enumValues.map((value) => (
                        <code key={value} className="schema-enum">
                          {value}
                        </code>
                      ))}
                    </div>
                  ) : null}
                  {row.defaultValue !== undefined ? (
                    <div className="schema-meta">
                      Default: <code>{row.defaultValue}</code>
                    </div>
                  ) : null}
                  {row.constraints.length > 0 ? <div className="schema-meta">{row.constraints.join(' · ')}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
