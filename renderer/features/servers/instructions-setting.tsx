import { useId, useState } from 'react';
import type { ServerState } from '../../../shared/domain';
import { INSTRUCTIONS_CAPS } from '../../../shared/domain/server-instructions';
import { sendsInstructionsOf, useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

/** Beyond either, the text starts folded: the Overview stays readable, the whole text is one press away. */
const FOLDED_CHARS = 600;
const FOLDED_LINES = 8;

/** The start of `text` shown while folded, or undefined when it is short enough to show whole. */
export function foldedInstructions(text: string): string | undefined {
  const lines = text.split('\n');
  if (text.length <= FOLDED_CHARS && lines.length <= FOLDED_LINES) return undefined;
  return `${lines.slice(0, FOLDED_LINES).join('\n').slice(0, FOLDED_CHARS).trimEnd()}…`;
}

/** The Overview's "Instructions from the server": the text (folded when long) and whether the model gets it. */
export function ServerInstructionsSection({ server }: { server: ServerState }) {
  const t = useT();
  const on = useBerth((s) => sendsInstructionsOf(s, server.name));
  const setSendInstructions = useBerth((s) => s.setSendInstructions);
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  // Told in the handshake: only a ready server has them.
  const text = server.status === 'ready' ? server.instructions : undefined;
  if (text === undefined || text.trim() === '') return null;
  const folded = foldedInstructions(text);
  const over = text.trim().length > INSTRUCTIONS_CAPS.perServer;
  return (
    <section className="instructions" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t('servers.instructions.heading')}</h3>
      <div className="switch-field">
        <Switch
          id={`${id}-switch`}
          checked={on}
          onCheckedChange={(send) => void setSendInstructions(server.name, send)}
          label={t('servers.instructions.switch')}
          describedBy={`${id}-hint`}
        />
        <label htmlFor={`${id}-switch`}>
          <strong>{t('servers.instructions.switch')}</strong>
          <span className="field-hint" id={`${id}-hint`}>
            {t(on ? 'servers.instructions.hintOn' : 'servers.instructions.hintOff')}
          </span>
        </label>
      </div>
      {over ? (
        <p className="fact-note" data-testid="instructions-cut">
          {t('servers.instructions.cut', {
            length: formatNumber(text.trim().length),
            cap: formatNumber(INSTRUCTIONS_CAPS.perServer),
          })}
        </p>
      ) : null}
      <pre className="prewrap" id={`${id}-text`} data-testid="instructions-text">
        {folded !== undefined && !expanded ? folded : text}
      </pre>
      {folded !== undefined ? (
        <div>
          <Button
            size="sm"
            aria-expanded={expanded}
            aria-controls={`${id}-text`}
            onClick={() => setExpanded(!expanded)}
          >
            {t(expanded ? 'servers.instructions.showLess' : 'servers.instructions.showAll')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
