import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ConsentRuleSchema, ruleCovers, type ConsentRule } from '../../../shared/domain/consent-rules';
import { serverTools } from '../../../shared/domain/server-state-read';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { Segmented } from '../../ui/segmented';
import { WarningIcon } from '../../ui/icons';

type Kind = ConsentRule['kind'];

/**
 * Write a rule for one server: allow its tools whose names match a glob, or
 * the tools it marks read-only. The tools it would cover are listed before it
 * is saved, and the rule covers exactly those, as listed now.
 */
export function RuleForm() {
  const ready = useBerth(
    useShallow((s) =>
      Object.values(s.servers)
        .filter((server) => server.status === 'ready')
        .map((server) => server.name)
        .sort((a, b) => a.localeCompare(b)),
    ),
  );
  const [server, setServer] = useState('');
  const chosen = server !== '' && ready.includes(server) ? server : (ready[0] ?? '');
  const tools = useBerth((s) => (chosen === '' ? undefined : serverTools(s.servers[chosen])));
  const addRule = useBerth((s) => s.addConsentRule);
  const pushToast = useBerth((s) => s.pushToast);
  const [kind, setKind] = useState<Kind>('name-pattern');
  const [pattern, setPattern] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const serverId = useId();
  const patternId = useId();

  const parsed = ConsentRuleSchema.safeParse(kind === 'read-only' ? { kind } : { kind, pattern });
  const covered =
    parsed.success && tools !== undefined
      ? tools.filter((tool) => ruleCovers(parsed.data, tool)).map((tool) => tool.name)
      : [];
  const patternProblem =
    kind === 'name-pattern' && pattern.trim() !== '' && !parsed.success ? parsed.error.issues[0]?.message : undefined;

  async function save() {
    if (!parsed.success || chosen === '') return;
    setBusy(true);
    const result = await addRule(chosen, parsed.data);
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setError(undefined);
    setPattern('');
    pushToast({
      tone: 'success',
      title: 'Rule added',
      message: `${result.value.scope === 'rule' ? result.value.tools.length : 0} tools of “${chosen}” run without asking.`,
    });
  }

  if (ready.length === 0)
    return (
      <p className="settings-empty">Start a server to write a rule for it: a rule covers the tools the server lists.</p>
    );
  return (
    <div className="rule-form" data-testid="rule-form">
      <h3 className="rule-form-title">Add a rule</h3>
      <div className="rule-form-row">
        <label className="field-label" htmlFor={serverId}>
          Server
        </label>
        <select id={serverId} className="input" value={chosen} onChange={(event) => setServer(event.target.value)}>
          {ready.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <Segmented
          value={kind}
          aria-label="Which tools"
          options={[
            { value: 'name-pattern', label: 'Names that match' },
            { value: 'read-only', label: 'Marked read-only' },
          ]}
          onChange={setKind}
        />
      </div>
      {kind === 'name-pattern' ? (
        <div className="field">
          <label className="field-label" htmlFor={patternId}>
            Tool names that match
          </label>
          <input
            id={patternId}
            className="input mono"
            value={pattern}
            placeholder="get_*"
            maxLength={100}
            aria-invalid={patternProblem !== undefined}
            onChange={(event) => setPattern(event.target.value)}
          />
          <p className={patternProblem ? 'field-error' : 'field-hint'}>
            {patternProblem ??
              '* stands for any characters, ? for one; the pattern must match the whole name (get_* matches get_file, not forget_file).'}
          </p>
        </div>
      ) : (
        <div className="banner banner-warning compact rule-trust" role="note" data-testid="read-only-trust">
          <WarningIcon />
          <span>
            This trusts the server’s own claim (<code>readOnlyHint</code>). Berth cannot check that a tool marked
            read-only only reads; allow this only for a server you trust.
          </span>
        </div>
      )}
      <p className="rule-preview" data-testid="rule-preview">
        {covered.length === 0 ? (
          <span className="muted">
            {parsed.success ? 'No tool of this server falls under this rule.' : 'Covers: nothing yet.'}
          </span>
        ) : (
          <>
            Covers {covered.length === 1 ? 'this tool' : `these ${covered.length} tools`}, as listed now:{' '}
            {covered.map((name, index) => (
              <span key={name}>
                {index > 0 ? ', ' : ''}
                <code>{name}</code>
              </span>
            ))}
            . A tool added later, or one that changes, asks again.
          </>
        )}
      </p>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <div className="rule-form-actions">
        <Button variant="primary" size="sm" disabled={busy || covered.length === 0} onClick={() => void save()}>
          Add rule
        </Button>
      </div>
    </div>
  );
}
