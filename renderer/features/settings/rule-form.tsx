import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  ConsentRuleSchema,
  ruleCovers,
  TOOL_PATTERN_MAX,
  type ConsentRule,
} from '../../../shared/domain/consent-rules';
import { serverTools } from '../../../shared/domain/server-state-read';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { submitOnEnter } from '../../ui/submit-on-enter';
import { Segmented } from '../../ui/segmented';
import { WarningIcon } from '../../ui/icons';
import { T } from '../../i18n/t';
import { failureText } from '../../i18n/host-message';
import { useT, type Translate } from '../../i18n/use-t';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

type Kind = ConsentRule['kind'];

/** The annotation a read-only rule trusts, named as the protocol spells it (never translated). */
const READ_ONLY_HINT = 'readOnlyHint';

/** What is wrong with a pattern, in the person's language (the schema's own messages are the host's English). */
function patternProblemWords(t: Translate, issue: { code: string; message: string } | undefined): string | undefined {
  if (issue === undefined) return undefined;
  if (issue.code === 'too_small') return t('settings.rules.pattern.empty');
  if (issue.code === 'too_big') return t('settings.rules.pattern.tooLong', { max: TOOL_PATTERN_MAX });
  if (issue.code === 'invalid_format') return t('settings.rules.pattern.characters');
  return issue.message;
}

/**
 * Write a rule for one server: allow its tools whose names match a glob, or
 * the tools it marks read-only. The tools it would cover are listed before it
 * is saved, and the rule covers exactly those, as listed now.
 */
export function RuleForm() {
  const t = useT();
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
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const serverId = useId();
  const patternId = useId();

  const parsed = ConsentRuleSchema.safeParse(kind === 'read-only' ? { kind } : { kind, pattern });
  const covered =
    parsed.success && tools !== undefined
      ? tools.filter((tool) => ruleCovers(parsed.data, tool)).map((tool) => tool.name)
      : [];
  const patternProblem =
    kind === 'name-pattern' && pattern.trim() !== '' && !parsed.success
      ? patternProblemWords(t, parsed.error.issues[0])
      : undefined;

  async function save() {
    if (!parsed.success || chosen === '') return;
    setBusy(true);
    const result = await addRule(chosen, parsed.data);
    setBusy(false);
    if (!result.ok) {
      setError(result);
      return;
    }
    setError(undefined);
    setPattern('');
    pushToast({
      tone: 'success',
      title: words('settings.rules.added'),
      message: words('settings.rules.addedBody', {
        count: result.value.scope === 'rule' ? result.value.tools.length : 0,
        server: chosen,
      }),
    });
  }

  if (ready.length === 0) return <p className="settings-empty">{t('settings.rules.noServer')}</p>;
  return (
    <div className="rule-form" data-testid="rule-form">
      <h3 className="rule-form-title">{t('settings.rules.title')}</h3>
      <div className="rule-form-row">
        <label className="field-label" htmlFor={serverId}>
          {t('settings.rules.server')}
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
          aria-label={t('settings.rules.which')}
          options={[
            { value: 'name-pattern', label: t('settings.rules.kind.namePattern') },
            { value: 'read-only', label: t('settings.rules.kind.readOnly') },
          ]}
          onChange={setKind}
        />
      </div>
      {kind === 'name-pattern' ? (
        <div className="field">
          <label className="field-label" htmlFor={patternId}>
            {t('settings.rules.pattern.label')}
          </label>
          <input
            id={patternId}
            className="input mono"
            value={pattern}
            placeholder="get_*"
            maxLength={100}
            aria-invalid={patternProblem !== undefined}
            onChange={(event) => setPattern(event.target.value)}
            onKeyDown={submitOnEnter(() => {
              if (!busy && covered.length > 0) void save();
            })}
          />
          <p className={patternProblem ? 'field-error' : 'field-hint'}>
            {patternProblem ?? t('settings.rules.pattern.hint')}
          </p>
        </div>
      ) : (
        <div className="banner banner-warning compact rule-trust" role="note" data-testid="read-only-trust">
          <WarningIcon />
          <span>
            <T id="settings.rules.readOnlyTrust" components={{ hint: <code>{READ_ONLY_HINT}</code> }} />
          </span>
        </div>
      )}
      <p className="rule-preview" data-testid="rule-preview">
        {covered.length === 0 ? (
          <span className="muted">
            {t(parsed.success ? 'settings.rules.coversNone' : 'settings.rules.coversNothingYet')}
          </span>
        ) : (
          <T
            id="settings.rules.covers"
            values={{ count: covered.length }}
            components={{
              tools: (
                <>
                  {covered.map((name, index) => (
                    <span key={name}>
                      {index > 0 ? ', ' : ''}
                      <code>{name}</code>
                    </span>
                  ))}
                </>
              ),
            }}
          />
        )}
      </p>
      {error ? <InlineAlert>{failureText(error)}</InlineAlert> : null}
      <div className="rule-form-actions">
        <Button variant="primary" size="sm" disabled={busy || covered.length === 0} onClick={() => void save()}>
          {t('settings.rules.add')}
        </Button>
      </div>
    </div>
  );
}
