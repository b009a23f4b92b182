import { useMemo, useState } from 'react';
import { Button } from '../../ui/controls';
import { schemaRows } from './schema-model';
import { useT } from '../../i18n/use-t';

/** A tool's input schema as a properties table, with the raw JSON one click away. */
export function SchemaTable({ schema, label }: { schema: Record<string, unknown>; label: string }) {
  const t = useT();
  // t: the rows' constraints ("max 5 chars") are worded in the active language, again after a switch.
  const rows = useMemo(() => schemaRows(schema), [schema, t]);
  const [raw, setRaw] = useState(false);
  return (
    <div className="schema">
      <div className="schema-head">
        <span className="schema-title">{label}</span>
        <Button size="sm" variant="ghost" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
          {t(raw ? 'servers.schema.showTable' : 'servers.schema.rawJson')}
        </Button>
      </div>
      {raw ? (
        <pre className="code-block">{JSON.stringify(schema, null, 2)}</pre>
      ) : rows.length === 0 ? (
        <p className="muted small">{t('servers.schema.noParameters')}</p>
      ) : (
        <table className="schema-table">
          <thead>
            <tr>
              <th scope="col">{t('servers.schema.name')}</th>
              <th scope="col">{t('servers.schema.type')}</th>
              <th scope="col">{t('servers.schema.description')}</th>
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
                    <span className="schema-required" title={t('servers.schema.requiredTitle')}>
                      {t('servers.schema.required')}
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
                      {t('servers.schema.oneOf')}{' '}
                      {row.enumValues.map((value) => (
                        <code key={value} className="schema-enum">
                          {value}
                        </code>
                      ))}
                    </div>
                  ) : null}
                  {row.defaultValue !== undefined ? (
                    <div className="schema-meta">
                      {t('servers.schema.default')} <code>{row.defaultValue}</code>
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
