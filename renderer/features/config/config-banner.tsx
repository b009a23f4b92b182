import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { WarningIcon } from '../../ui/icons';
import { describeProblem } from './problem-text';

/** Shown while the config file cannot be used; the file is untouched until the person fixes it. */
export function ConfigBanner() {
  const status = useBerth((s) => s.configStatus);
  const openConfigEditor = useBerth((s) => s.openConfigEditor);
  if (status?.state !== 'invalid') return null;
  const [first, ...rest] = status.problems;
  return (
    <div className="banner banner-danger" role="alert" data-testid="config-banner">
      <WarningIcon />
      <div className="banner-text">
        <strong>Your config file has a problem, so Berth did not load it.</strong>
        <span>
          {first ? describeProblem(first) : 'It could not be read.'}
          {rest.length > 0 ? ` (and ${rest.length} more)` : ''}
        </span>
        <code className="banner-path">{status.path}</code>
      </div>
      <Button variant="primary" size="sm" onClick={() => openConfigEditor(true)}>
        Fix it
      </Button>
    </div>
  );
}
