import { useShallow } from 'zustand/react/shallow';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ShieldIcon, WarningIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

/**
 * After an import: the new servers are off, and this says so where the
 * person looks next, with what each runs, what to check, and a Turn on
 * button per server. A server turned on (here or with its switch) leaves
 * the list; the notice goes once none is left or the person dismisses it.
 */
export function ImportedNotice() {
  const t = useT();
  const notes = useBerth(
    useShallow((s) => s.importedNotes.filter((note) => s.servers[note.name]?.config.enabled === false)),
  );
  const setServerEnabled = useBerth((s) => s.setServerEnabled);
  const dismiss = useBerth((s) => s.dismissImportedNotes);
  if (notes.length === 0) return null;
  return (
    <section className="imported-notice" aria-labelledby="imported-notice-title">
      <div className="imported-notice-head">
        <ShieldIcon />
        <h3 id="imported-notice-title">{t('config-import.notice.title', { count: notes.length })}</h3>
      </div>
      <p className="imported-notice-text">{t('config-import.notice.text')}</p>
      <ul className="imported-notice-list">
        {notes.map((note) => (
          <li key={note.name} data-imported={note.name}>
            <div className="imported-notice-row">
              <span className="imported-notice-name">{note.name}</span>
              <Button
                size="sm"
                onClick={() => void setServerEnabled(note.name, true)}
                aria-label={t('config-import.notice.turnOnServer', { server: note.name })}
              >
                {t('config-import.notice.turnOn')}
              </Button>
            </div>
            <code className="imported-notice-runs" title={note.runs}>
              {note.runs}
            </code>
            {note.warnings.length > 0 ? (
              <ul className="imported-notice-warnings">
                {note.warnings.map((warning, index) => (
                  <li key={index}>
                    <WarningIcon />
                    <span>{warning}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
      <Button size="sm" variant="ghost" className="imported-notice-dismiss" onClick={dismiss}>
        {t('config-import.notice.dismiss')}
      </Button>
    </section>
  );
}
