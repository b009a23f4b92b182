import { useId } from 'react';
import type { ServerState, ToolInfo } from '../../../shared/domain';
import { optionalToolsAsTasksOf, useBerth } from '../../store';
import { Switch } from '../../ui/switch';
import { translate, useT, type Translate } from '../../i18n/use-t';

/** What the switch means for this server's tools, as far as Berth knows them. `t` from the caller's useT() follows a language switch. */
export function taskToolsSummary(server: ServerState, t: Translate = translate): string {
  if (server.status !== 'ready') return t('servers.tasks.notReady');
  if (server.tools.length === 0) return t('servers.tasks.noTools');
  const support = (tool: ToolInfo) => tool.execution?.taskSupport;
  const total = server.tools.length;
  const only = total === 1 ? 'yes' : 'no';
  const required = server.tools.filter((tool) => support(tool) === 'required').length;
  const optional = server.tools.filter((tool) => support(tool) === 'optional').length;
  if (required === 0 && optional === 0)
    return total === 1 ? t('servers.tasks.onlyCannot') : t('servers.tasks.noneCan', { total });
  // Berth runs tasks only where the server says it accepts them (app/tasks/task-aware-connection.ts).
  const undeclared =
    server.era === 'legacy' && server.capabilities !== undefined && !declaresTaskToolCalls(server.capabilities)
      ? 'yes'
      : 'no';
  if (required === 0) return t('servers.tasks.optional', { only, total, count: optional, undeclared });
  if (optional === 0) return t('servers.tasks.required', { only, total, count: required, undeclared });
  return t('servers.tasks.mixed', { total, required, optional, undeclared });
}

function declaresTaskToolCalls(capabilities: Record<string, unknown>): boolean {
  const tasks = capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return typeof tasks?.requests?.tools?.call === 'object' && tasks.requests.tools.call !== null;
}

/** The Overview's task switch: read by every tool call in the host, so a change applies from the next call. */
export function TaskSettingFacts({ server }: { server: ServerState }) {
  const t = useT();
  const on = useBerth((s) => optionalToolsAsTasksOf(s, server.name));
  const setOptionalToolsAsTasks = useBerth((s) => s.setOptionalToolsAsTasks);
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <>
      <dt>{t('servers.tasks.title')}</dt>
      <dd className="task-setting" data-testid="task-setting">
        <div className="switch-field">
          <Switch
            id={id}
            checked={on}
            onCheckedChange={(asTasks) => void setOptionalToolsAsTasks(server.name, asTasks)}
            label={t('servers.tasks.switch')}
            describedBy={hintId}
          />
          <label htmlFor={id}>
            <strong>{t('servers.tasks.switch')}</strong>
            <span className="field-hint" id={hintId}>
              {t('servers.tasks.hint')}
            </span>
          </label>
        </div>
        <p className="fact-note" data-testid="task-tool-counts">
          {taskToolsSummary(server, t)}
        </p>
      </dd>
    </>
  );
}
