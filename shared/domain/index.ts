export * from './server';
export * from './log';
export * from './config';
export * from './launch-risk';
