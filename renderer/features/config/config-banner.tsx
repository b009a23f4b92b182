import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';
import { describeProblem } from './problem-text';
import { useT } from '../../i18n/use-t';

/** Shown while the config file cannot be used; the file is untouched until the person fixes it. */
export function ConfigBanner() {
  const t = useT();
  const status = useBerth((s) => s.configStatus);
  const openConfigEditor = useBerth((s) => s.openConfigEditor);
  if (status?.state !== 'invalid') return null;
  const [first, ...rest] = status.problems;
  return (
    <div className="banner banner-danger" role="alert" data-testid="config-banner">
      <WarningIcon />
      <div className="banner-text">
        <strong>{t('config.banner.title')}</strong>
        <span>
          {first ? describeProblem(first, t) : t('config.banner.unreadable')}
          {rest.length > 0 ? t('config.banner.more', { count: rest.length }) : ''}
        </span>
        <code className="banner-path">{status.path}</code>
      </div>
      <Button variant="primary" size="sm" onClick={() => openConfigEditor(true)}>
        {t('config.banner.fix')}
      </Button>
    </div>
  );
}
