import { describe, expect, it } from 'vitest';
import { dockerRisks } from './docker-risk';

const options = (args: string[], command = 'docker') => dockerRisks(command, args).map((risk) => risk.option);

describe('dockerRisks', () => {
  it.each([
    [['run', '-i', '--rm', '-v', '/:/host', 'img'], '-v /:/host'],
    [['run', '-i', '--rm', '-v/home/me:/data', 'img'], '-v/home/me:/data'],
    [
      ['run', '--volume=/var/run/docker.sock:/var/run/docker.sock', 'img'],
      '--volume=/var/run/docker.sock:/var/run/docker.sock',
    ],
    [['run', '--volume', '~/.ssh:/ssh:ro', 'img'], '--volume ~/.ssh:/ssh:ro'],
    [['run', '--mount', 'type=bind,source=/etc,target=/etc', 'img'], '--mount type=bind,source=/etc,target=/etc'],
    [['run', '--mount=type=bind,src=/,dst=/h', 'img'], '--mount=type=bind,src=/,dst=/h'],
    [['run', '--privileged', 'img'], '--privileged'],
    [['run', '--network', 'host', 'img'], '--network host'],
    [['run', '--network=host', 'img'], '--network=host'],
    [['run', '--net=host', 'img'], '--net=host'],
    [['run', '--net', 'host', 'img'], '--net host'],
    [['run', '--pid', 'host', 'img'], '--pid host'],
    [['run', '--pid=host', 'img'], '--pid=host'],
    [['run', '--ipc', 'host', 'img'], '--ipc host'],
    [['run', '--ipc=host', 'img'], '--ipc=host'],
    [['run', '--cap-add', 'SYS_ADMIN', 'img'], '--cap-add SYS_ADMIN'],
    [['run', '--cap-add=ALL', 'img'], '--cap-add=ALL'],
    [['run', '--device', '/dev/sda', 'img'], '--device /dev/sda'],
    [['run', '--device=/dev/kvm', 'img'], '--device=/dev/kvm'],
    [['run', '--security-opt', 'seccomp=unconfined', 'img'], '--security-opt seccomp=unconfined'],
    [['run', '--security-opt=apparmor=unconfined', 'img'], '--security-opt=apparmor=unconfined'],
    [['run', '--entrypoint', '/bin/sh', 'img'], '--entrypoint /bin/sh'],
    [['run', '--entrypoint=/bin/sh', 'img'], '--entrypoint=/bin/sh'],
    [['run', '--user', '0', 'img'], '--user 0'],
    [['run', '--user=root', 'img'], '--user=root'],
    [['run', '-u', '0:0', 'img'], '-u 0:0'],
    [['run', '-itu0', 'img'], '-itu0'],
    [['container', 'run', '--privileged', 'img'], '--privileged'],
  ])('%j flags %s', (args, option) => {
    expect(options(args)).toEqual([option]);
  });

  it('says why in words', () => {
    expect(dockerRisks('docker', ['run', '--network', 'host', 'img'])[0]?.reason).toMatch(
      /reaches every service on this computer/,
    );
    expect(dockerRisks('/usr/bin/podman', ['run', '-v', '/:/h', 'img'])[0]?.reason).toBe(
      "gives the container the host's / (read and write unless it says :ro)",
    );
  });

  it('leaves a plain run alone, and reads options after the image as the container’s own', () => {
    expect(
      options([
        'run',
        '-i',
        '--rm',
        '-e',
        'TOKEN',
        '--name',
        'x',
        '-v',
        'cache:/cache',
        '-v',
        '/data',
        'ghcr.io/o/img:1',
        '--privileged',
        '-v',
        '/:/h',
      ]),
    ).toEqual([]);
    expect(options(['run', '--network', 'bridge', '--user', '1000', 'img'])).toEqual([]);
    expect(options(['run', '--privileged', 'img'], 'npx')).toEqual([]);
    expect(options(['build', '--privileged', '.'])).toEqual([]);
  });
});
