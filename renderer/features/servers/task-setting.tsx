import { useId } from 'react';
import type { ServerState, ToolInfo } from '../../../shared/domain';
import { optionalToolsAsTasksOf, useBerth } from '../../store';
import { Switch } from '../../ui/switch';

export const TASK_SWITCH_LABEL = 'Run long tool calls as tasks';
export const TASK_SWITCH_HINT =
  'Tools that can run in the background report progress and can be cancelled; Berth checks on them instead of waiting on one request.';

const tools = (n: number): string => (n === 1 ? '1 tool' : `${n} tools`);

/** What the switch means for this server's tools, as far as Berth knows them. */
export function taskToolsSummary(server: ServerState): string {
  if (server.status !== 'ready') return 'Which of its tools can run as tasks is known once it is ready.';
  if (server.tools.length === 0) return 'It offers no tools, so this changes nothing for it.';
  const support = (tool: ToolInfo) => tool.execution?.taskSupport;
  const required = server.tools.filter((tool) => support(tool) === 'required').length;
  const optional = server.tools.filter((tool) => support(tool) === 'optional').length;
  const of =
    server.tools.length === 1
      ? 'Its only tool'
      : `Of its ${tools(server.tools.length)}, ${required > 0 ? required : optional}`;
  let summary: string;
  if (required === 0 && optional === 0)
    summary =
      server.tools.length === 1
        ? 'Its only tool cannot run as a task, so this changes nothing for it.'
        : `None of its ${tools(server.tools.length)} can run as a task, so this changes nothing for it.`;
  else if (required === 0) summary = `${of} can run as ${optional === 1 ? 'a task' : 'tasks'}: this switch decides.`;
  else if (optional === 0)
    summary = `${of} must run as ${required === 1 ? 'a task' : 'tasks'}, whatever this says; none is left to this switch.`;
  else
    summary = `${of} must run as ${required === 1 ? 'a task' : 'tasks'} (whatever this says) and ${optional} can (this switch decides).`;
  // Berth runs tasks only where the server says it accepts them (app/tasks/task-aware-connection.ts).
  if (
    (required > 0 || optional > 0) &&
    server.era === 'legacy' &&
    server.capabilities !== undefined &&
    !declaresTaskToolCalls(server.capabilities)
  ) {
    summary += ' The server does not declare task support, though, so Berth calls its tools plainly.';
  }
  return summary;
}

function declaresTaskToolCalls(capabilities: Record<string, unknown>): boolean {
  const tasks = capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return typeof tasks?.requests?.tools?.call === 'object' && tasks.requests.tools.call !== null;
}

/** The Overview's task switch: read by every tool call in the host, so a change applies from the next call. */
export function TaskSettingFacts({ server }: { server: ServerState }) {
  const on = useBerth((s) => optionalToolsAsTasksOf(s, server.name));
  const setOptionalToolsAsTasks = useBerth((s) => s.setOptionalToolsAsTasks);
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <>
      <dt>Long tool calls</dt>
      <dd className="task-setting" data-testid="task-setting">
        <div className="switch-field">
          <Switch
            id={id}
            checked={on}
            onCheckedChange={(asTasks) => void setOptionalToolsAsTasks(server.name, asTasks)}
            label={TASK_SWITCH_LABEL}
            describedBy={hintId}
          />
          <label htmlFor={id}>
            <strong>{TASK_SWITCH_LABEL}</strong>
            <span className="field-hint" id={hintId}>
              {TASK_SWITCH_HINT}
            </span>
          </label>
        </div>
        <p className="fact-note" data-testid="task-tool-counts">
          {taskToolsSummary(server)}
        </p>
      </dd>
    </>
  );
}
