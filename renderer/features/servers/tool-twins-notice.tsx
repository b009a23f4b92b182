import { repeatedTools, toolTwinGroups, type ToolInfo } from '../../../shared/domain';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/**
 * What Berth did about tools of this server that share a name (shared/domain/tool-twins.ts): each name with the
 * names the model is offered instead, so a person who sees `search_2` in a chat knows where it came from.
 */
export function ToolTwinsNotice({ tools }: { tools: readonly ToolInfo[] }) {
  const t = useT();
  const twins = toolTwinGroups(tools);
  const repeats = repeatedTools(tools);
  if (twins.length === 0 && repeats.length === 0) return null;
  return (
    <div className="tool-twins" role="group" aria-label={t('servers.tools.twinsLabel')} data-testid="tool-twins">
      <ul>
        {twins.map(({ listedName, renamed }) => (
          <li key={`twins:${listedName}`}>
            <T
              id="servers.tools.twins"
              values={{
                count: renamed.length + 1,
                others: renamed.length,
                name: listedName,
                renamed: renamed.join(', '),
              }}
              components={{ code: <code /> }}
            />
          </li>
        ))}
        {repeats.map(({ name, repeats: times }) => (
          <li key={`repeats:${name}`}>
            <T id="servers.tools.repeated" values={{ name, times: times + 1 }} components={{ code: <code /> }} />
          </li>
        ))}
      </ul>
      <p className="tool-twins-why">{t('servers.tools.twinsWhy')}</p>
    </div>
  );
}
