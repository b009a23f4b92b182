import { useMemo, useRef, useState } from 'react';
import type { ConfigProblem } from '../../../shared/domain';
import type { Failure } from '../../../shared/result';
import { SECRET_MASK } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';
import { describeProblem } from './problem-text';
import { Dialog, DialogClose, DialogDescription, DialogHeader } from '../../ui/dialog';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { words } from '../../i18n/words';

const LINE_HEIGHT = 20;

export function ConfigEditorDialog() {
  const open = useBerth((s) => s.configEditorOpen);
  const openConfigEditor = useBerth((s) => s.openConfigEditor);
  return (
    <Dialog
      open={open}
      onOpenChange={openConfigEditor}
      className="dialog-editor"
      aria-describedby="config-editor-description"
    >
      {open ? <ConfigEditor /> : null}
    </Dialog>
  );
}

/**
 * Fix-it editor for an invalid config file. The text is taken once from the
 * host and then belongs to the person: neither a failed save nor a host event
 * ever replaces it.
 */
function ConfigEditor() {
  const t = useT();
  const status = useBerth((s) => s.configStatus);
  const saveConfigText = useBerth((s) => s.saveConfigText);
  const openConfigEditor = useBerth((s) => s.openConfigEditor);
  const pushToast = useBerth((s) => s.pushToast);
  const [text, setText] = useState(() => status?.text ?? '');
  const [problems, setProblems] = useState<ConfigProblem[]>(() => status?.problems ?? []);
  const [saving, setSaving] = useState(false);
  const [scrollTop, setScrollTop] = useState(0);
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  const lineCount = useMemo(() => text.split('\n').length, [text]);
  const problemLines = useMemo(
    () => new Set(problems.flatMap((p) => (p.line !== undefined ? [p.line] : []))),
    [problems],
  );

  async function save() {
    setSaving(true);
    const result = await saveConfigText(text);
    setSaving(false);
    if (!result.ok) {
      setProblems([problemFromFailure(result)]);
      return;
    }
    if (result.value.state === 'invalid') {
      setProblems(result.value.problems);
      return;
    }
    openConfigEditor(false);
    pushToast({ tone: 'success', title: words('config.editor.saved'), message: words('config.editor.savedMessage') });
  }

  function goToLine(line: number) {
    const area = textareaRef.current;
    if (!area) return;
    const lines = text.split('\n');
    const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
    area.focus();
    area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
    area.scrollTop = Math.max(0, (line - 4) * LINE_HEIGHT);
  }

  return (
    <div className="config-editor">
      <DialogHeader title={t('config.editor.title')} />
      <DialogDescription id="config-editor-description">
        <T
          id="config.editor.description"
          values={{ path: status?.path ?? 'config.json' }}
          components={{ code: <code className="wrap" /> }}
        />
      </DialogDescription>
      {status?.hiddenSecrets !== undefined ? (
        <div className="banner banner-warning compact" role="note" data-testid="hidden-secrets-note">
          <WarningIcon />
          <span className="banner-text">
            {t('config.editor.hiddenSecrets', { count: status.hiddenSecrets, mask: SECRET_MASK })}
          </span>
        </div>
      ) : null}
      {problems.length > 0 ? (
        <ul className="problem-list" role="alert" aria-label={t('config.editor.problems')}>
          {problems.map((problem, index) => (
            <li key={index}>
              <WarningIcon />
              <span>{describeProblem(problem, t)}</span>
              {problem.line !== undefined ? (
                <Button size="sm" variant="ghost" onClick={() => goToLine(problem.line!)}>
                  {t('config.editor.goToLine', { line: problem.line })}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="code-editor">
        <div className="code-gutter" aria-hidden="true">
          <div style={{ transform: `translateY(${-scrollTop}px)` }}>
            {Array.from({ length: lineCount }, (_, i) => (
              <div key={i} className={problemLines.has(i + 1) ? 'gutter-line problem' : 'gutter-line'}>
                {i + 1}
              </div>
            ))}
          </div>
        </div>
        <div className="code-area">
          {[...problemLines].map((line) => (
            <div
              key={line}
              className="code-highlight"
              style={{ top: (line - 1) * LINE_HEIGHT - scrollTop + 8 }}
              aria-hidden="true"
            />
          ))}
          <textarea
            ref={textareaRef}
            className="code-textarea"
            value={text}
            wrap="off"
            spellCheck={false}
            aria-label={t('config.editor.text')}
            // Focus starts in the text (Radix keeps it there), not on the close button.
            autoFocus
            onChange={(e) => setText(e.target.value)}
            onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          />
        </div>
      </div>
      <footer className="dialog-footer">
        <span className="muted small">{t('config.editor.lineCount', { count: lineCount })}</span>
        <div className="spacer" />
        <DialogClose>
          <Button variant="ghost">{t('config.editor.closeWithoutSaving')}</Button>
        </DialogClose>
        <Button variant="primary" onClick={() => void save()} disabled={saving}>
          {t(saving ? 'config.editor.checking' : 'config.editor.save')}
        </Button>
      </footer>
    </div>
  );
}

/**
 * A refused save as a problem, with its line when the host's English names one; its code is kept, so the
 * list words it in the person's language (and again after a language switch).
 */
function problemFromFailure(failure: Failure): ConfigProblem {
  const { message, hostMessage } = failure;
  const coded = hostMessage === undefined ? { message } : { message, hostMessage };
  const match = /line (\d+)(?:,? column (\d+))?/i.exec(message);
  if (!match) return coded;
  return { ...coded, line: Number(match[1]), column: match[2] ? Number(match[2]) : undefined };
}
