import { describe, expect, it } from 'vitest';
import { applyWrappers, ServiceSlots } from './host-context';
import type { OrderedWrapper } from './host-context';

describe('applyWrappers', () => {
  it('puts the lowest order innermost, whatever order the wrappers were registered in', () => {
    const tag = (name: string, order: number): OrderedWrapper<(call: string) => string> => ({
      order,
      wrap: (inner) => (call) => `${name}(${inner(call)})`,
    });
    const open = applyWrappers((call: string) => `connection:${call}`, [tag('tasks', 20), tag('sandbox', 10)]);
    expect(open('callTool')).toBe('tasks(sandbox(connection:callTool))');
  });

  it('keeps registration order between equal orders, and gives back the base with none', () => {
    const tag = (name: string): OrderedWrapper<string> => ({ order: 5, wrap: (inner) => `${name}(${inner})` });
    expect(applyWrappers('base', [tag('first'), tag('second')])).toBe('second(first(base))');
    expect(applyWrappers('base', [])).toBe('base');
  });
});

describe('ServiceSlots', () => {
  it('gives a provided service back by name', () => {
    const services = new ServiceSlots();
    const pinIssuer = async (): Promise<void> => undefined;
    services.provide('pinIssuer', pinIssuer);
    expect(services.get('pinIssuer')).toBe(pinIssuer);
    expect(services.find('pinIssuer')).toBe(pinIssuer);
  });

  it('names a service used before its module opened, and one provided twice', () => {
    const services = new ServiceSlots();
    expect(() => services.get('supervisor')).toThrow("the host service 'supervisor' is used before its module opened");
    expect(services.find('supervisor')).toBeUndefined();
    services.provide('openExternal', async () => undefined);
    expect(() => services.provide('openExternal', async () => undefined)).toThrow(
      "the host service 'openExternal' is provided twice",
    );
  });
});
