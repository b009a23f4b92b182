import { createSkillsHandlers } from '../../bridge/handlers-skills';
import { createSkills } from '../../skills/create-skills';
import { skillToolProvider } from '../../skills/skill-tools';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** MCP skills: approved per server, loaded by the model's skill host tools. */
export const skillsModule: HostModule<HostContext> = {
  name: 'skills',
  phase: 'features',
  open(context, scope) {
    const { services } = context;
    const skills = services.provide(
      'skills',
      createSkills({
        lifecycle: context.lifecycle,
        servers: services.get('supervisor'),
        pending: services.get('pending'),
        stateDir: context.paths.stateDir,
        events: context.events,
        warn: context.warn,
        roots: () => services.find('roots'),
      }),
    );
    context.hostTools.push(() => skillToolProvider(skills));
    scope.onShutdown(() => skills.flush());
    context.bridgeHandlers.register(scope.module, () => createSkillsHandlers(skills));
  },
};
