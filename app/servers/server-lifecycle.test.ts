import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import type { ServerState } from '../../shared/domain/server';
import { ServerLifecycle, type ServerLifecycleListener } from './server-lifecycle';

const client = {} as Client;
const state = { name: 'files', status: 'ready' } as ServerState;

/** A listener that writes `<label>:<hook>:<argument>` into `heard` for every hook. */
function recorder(label: string, heard: string[]): ServerLifecycleListener {
  return {
    clientSetup: (server) => heard.push(`${label}:clientSetup:${server}`),
    serverChanged: (changed) => heard.push(`${label}:serverChanged:${changed.name}`),
    listChanged: { prompts: (server) => heard.push(`${label}:prompts:${server}`) },
    serverRemoved: (server) => heard.push(`${label}:serverRemoved:${server}`),
    shuttingDown: () => heard.push(`${label}:shuttingDown`),
  };
}

function lifecycle(): { lifecycle: ServerLifecycle; reported: string[] } {
  const reported: string[] = [];
  return {
    lifecycle: new ServerLifecycle({
      reportError: (what, error) => reported.push(`${what}: ${(error as Error).message}`),
    }),
    reported,
  };
}

describe('ServerLifecycle', () => {
  it('delivers every event to the listeners in the order they registered', () => {
    const { lifecycle: hub } = lifecycle();
    const heard: string[] = [];
    hub.register(recorder('a', heard));
    hub.register(recorder('b', heard));
    hub.register(recorder('c', heard));
    hub.clientSetup('files', client);
    hub.serverChanged(state);
    hub.listChanged('files', 'prompts');
    hub.serverRemoved('files');
    hub.shutdown();
    expect(heard).toEqual([
      'a:clientSetup:files',
      'b:clientSetup:files',
      'c:clientSetup:files',
      'a:serverChanged:files',
      'b:serverChanged:files',
      'c:serverChanged:files',
      'a:prompts:files',
      'b:prompts:files',
      'c:prompts:files',
      'a:serverRemoved:files',
      'b:serverRemoved:files',
      'c:serverRemoved:files',
      'a:shuttingDown',
      'b:shuttingDown',
      'c:shuttingDown',
    ]);
  });

  it('routes a list change only to the listeners of that kind', () => {
    const { lifecycle: hub } = lifecycle();
    const prompts = vi.fn();
    const resources = vi.fn();
    hub.register({ listChanged: { prompts } });
    hub.register({ listChanged: { resources } });
    hub.register({ serverChanged: vi.fn() });
    hub.listChanged('files', 'resources');
    expect(prompts).not.toHaveBeenCalled();
    expect(resources).toHaveBeenCalledWith('files');
  });

  it('keeps the listener as `this` for class instances', () => {
    const { lifecycle: hub } = lifecycle();
    class Service implements ServerLifecycleListener {
      readonly removed: string[] = [];
      serverRemoved(server: string): void {
        this.removed.push(server);
      }
    }
    const service = new Service();
    hub.register(service);
    hub.serverRemoved('files');
    expect(service.removed).toEqual(['files']);
  });

  it('reports a listener that throws and still tells the ones after it', () => {
    const { lifecycle: hub, reported } = lifecycle();
    const heard: string[] = [];
    hub.register(recorder('a', heard));
    hub.register({
      serverChanged: () => {
        throw new Error('boom');
      },
      serverRemoved: () => {
        throw new Error('bang');
      },
    });
    hub.register(recorder('c', heard));
    expect(() => hub.serverChanged(state)).not.toThrow();
    expect(() => hub.serverRemoved('files')).not.toThrow();
    expect(heard).toEqual([
      'a:serverChanged:files',
      'c:serverChanged:files',
      'a:serverRemoved:files',
      'c:serverRemoved:files',
    ]);
    expect(reported).toEqual([
      "a service failed hearing the new state of 'files': boom",
      "a service failed forgetting the removed server 'files': bang",
    ]);
  });

  it('runs every clientSetup, then fails the connection with the first error', () => {
    const { lifecycle: hub, reported } = lifecycle();
    const heard: string[] = [];
    hub.register({
      clientSetup: () => {
        throw new Error('no roots yet');
      },
    });
    hub.register(recorder('b', heard));
    hub.register({
      clientSetup: () => {
        throw new Error('second');
      },
    });
    expect(() => hub.clientSetup('files', client)).toThrow('no roots yet');
    expect(heard).toEqual(['b:clientSetup:files']);
    expect(reported).toEqual([
      "a service failed setting up the client of 'files': no roots yet",
      "a service failed setting up the client of 'files': second",
    ]);
  });

  it('a disposed listener hears nothing more; disposing twice leaves only that registration', () => {
    const { lifecycle: hub } = lifecycle();
    const heard: string[] = [];
    const listener = recorder('a', heard);
    const first = hub.register(listener);
    hub.register(listener);
    first.dispose();
    first.dispose();
    hub.serverRemoved('files');
    expect(heard).toEqual(['a:serverRemoved:files']);
  });

  it('a listener disposed by an earlier one during delivery is skipped; one registered then hears the next event', () => {
    const { lifecycle: hub } = lifecycle();
    const heard: string[] = [];
    let later = { dispose: () => undefined as void };
    hub.register({
      serverRemoved: (server) => {
        later.dispose();
        hub.register(recorder('late', heard));
        heard.push(`first:${server}`);
      },
    });
    later = hub.register(recorder('disposed', heard));
    hub.serverRemoved('files');
    hub.serverRemoved('notes');
    expect(heard).toEqual(['first:files', 'first:notes', 'late:serverRemoved:notes']);
  });

  it('tells about the shutdown once, and still delivers the states servers report while stopping', () => {
    const { lifecycle: hub } = lifecycle();
    const heard: string[] = [];
    hub.register(recorder('a', heard));
    hub.shutdown();
    hub.shutdown();
    hub.serverChanged({ name: 'files', status: 'stopped' } as ServerState);
    expect(heard).toEqual(['a:shuttingDown', 'a:serverChanged:files']);
  });

  it('a report that throws itself does not stop delivery', () => {
    const hub = new ServerLifecycle({
      reportError: () => {
        throw new Error('log closed');
      },
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const after = vi.fn();
    hub.register({
      serverRemoved: () => {
        throw new Error('boom');
      },
    });
    hub.register({ serverRemoved: after });
    hub.serverRemoved('files');
    expect(after).toHaveBeenCalledWith('files');
    expect(errors).toHaveBeenCalledOnce();
    errors.mockRestore();
  });
});
