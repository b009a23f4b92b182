export * from './server';
export * from './log';
export * from './config';
export * from './launch-risk';
export * from './address-class';
export * from './docker-risk';
export * from './shell-line';
export * from './launch-confirm';
