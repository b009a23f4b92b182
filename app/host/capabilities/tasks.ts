import { createTaskSettingsHandlers } from '../../bridge/handlers-task-settings';
import { createTasksHandlers } from '../../bridge/handlers-tasks';
import { TaskReceivers } from '../../tasks/task-receiver';
import { TaskRegistry } from '../../tasks/task-registry';
import { ToolTasks } from '../../tasks/tool-tasks';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';
import { SANDBOX_CONNECTION_ORDER } from './sandbox';

/** Outside the sandbox's watch: a tool call becomes a task over the connection the sandbox already watches. */
export const TASKS_CONNECTION_ORDER = SANDBOX_CONNECTION_ORDER + 10;

/** MCP tasks both ways: tool calls run as tasks where the tool and server say so, and tasks a server asks Berth to run. */
export const tasksModule: HostModule<HostContext> = {
  name: 'tasks',
  phase: 'services',
  async open(context, scope) {
    const { services, events, lifecycle } = context;
    const logs = services.get('logs');
    const settings = services.get('settings');
    const questions = services.get('questions');
    const sampling = services.get('sampling');
    const toolCalls = services.get('toolCalls');
    const pending = services.get('pending');
    // Set once open: the registry's first changes come from opening it (the tasks of the last run), not for it to hear.
    let toolTasks: ToolTasks | undefined = undefined;
    const tasks = services.provide(
      'tasks',
      new TaskRegistry({
        onChange: (change) => {
          events.emit('tasks.changed', change);
          toolTasks?.registryChanged(change);
        },
      }),
    );
    // A server's questions, asked plainly or inside a task: the same review and form, labelled with the call.
    const ask = {
      sampling: questions.answerSampling.bind(questions),
      elicitation: questions.answerElicitation.bind(questions),
    };
    toolTasks = services.provide(
      'toolTasks',
      await ToolTasks.open({
        stateDir: context.paths.stateDir,
        registry: tasks,
        logs,
        optionalAsTasks: (server) => settings.tasksForOptionalTools(server),
        questions: ask,
        ...(context.options.backgroundTaskAfterMs === undefined
          ? {}
          : { backgroundAfterMs: context.options.backgroundTaskAfterMs }),
      }),
    );
    const opened = toolTasks;
    // After the consent module: its plain sampling/elicitation handlers must be in place before the receiver binds over them.
    lifecycle.register(
      new TaskReceivers({
        registry: tasks,
        pending,
        questions: { ...ask, samplingRefusal: (server) => sampling.refusal(server) },
        origin: (server) => toolCalls.originOf(server),
        logs,
      }),
    );
    lifecycle.register(opened);
    pending.onChange((change) => opened.questionsChanged(change));
    context.connectionWrappers.push({ order: TASKS_CONNECTION_ORDER, wrap: (open) => opened.wrap(open) });
    scope.onShutdown(() => opened.flush());
    context.bridgeHandlers.register(scope.module, () => ({
      ...createTasksHandlers(tasks),
      ...createTaskSettingsHandlers({ settings, servers: services.get('supervisor'), events }),
    }));
  },
};
