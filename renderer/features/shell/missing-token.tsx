import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { BrandIcon } from '../../ui/icons';

/** Browser mode opened without the per-run token: explain how to get the right address. */
export function MissingToken() {
  const t = useT();
  const code = <code />;
  return (
    <main className="fullpage">
      <div className="fullpage-card">
        <span className="brand-mark large">
          <BrandIcon />
        </span>
        <h1>{t('shell.missingToken.title')}</h1>
        <p>{t('shell.missingToken.why')}</p>
        <ol>
          <li>
            <T id="shell.missingToken.step1" components={{ code }} />
          </li>
          <li>
            <T id="shell.missingToken.step2" components={{ code }} />
          </li>
        </ol>
        <p className="muted">{t('shell.missingToken.note')}</p>
      </div>
    </main>
  );
}
